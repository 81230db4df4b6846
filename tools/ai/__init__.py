"""Adapters for game-playing programs: kifu's games as OpenSpiel games and PettingZoo environments.

``actions`` numbers each game's legal decisions (a fixed action space per game); the rest needs the ``ai`` extra
(``pip install -e '.[ai]'``: open-spiel, pettingzoo).
"""
