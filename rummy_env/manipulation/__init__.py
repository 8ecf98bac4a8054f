"""Manipulation Rummy (RULES section 7, MR-1..10): rules, table-partition solver, engine."""
