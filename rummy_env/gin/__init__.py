"""Gin Rummy (RULES section 9, GR-1..9).

Modules: ``melds`` (the card bitmasks, the meld table and the exact deadwood solver; pure
Python), ``rules``, ``state``, ``scenario`` and ``codec`` (the engine). Nothing is imported here,
so ``rummy_env.gin.melds`` can be used without the engine.
"""
