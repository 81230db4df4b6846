"""The event layer: event types, the record envelope with its hash chain, stores, integrity, randomness."""
