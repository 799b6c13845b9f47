"""The fault matrix: broken, hostile and failing inputs, each a case with an expected outcome.

Importing :mod:`tests.faultkit.registry` fills :data:`~tests.faultkit.harness.CASES`;
``python3 dev.py faults`` runs them all and the tests in ``tests/faults`` run them by group.
"""
