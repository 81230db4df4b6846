"""Reading and writing logs: stores, exported files, streams, safe output and the exchange schema."""
