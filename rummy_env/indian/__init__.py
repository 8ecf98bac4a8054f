"""Indian Rummy / Paplu (RULES section 8, IR-1..12).

Modules: ``solver`` (hand arrangement: payment under IR-9, declarations under IR-6; pure
Python), ``rules``, ``state``, ``scenario`` and ``codec`` (the engine). Nothing is imported here,
so ``rummy_env.indian.solver`` can be used without the engine.
"""
