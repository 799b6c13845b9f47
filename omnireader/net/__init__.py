"""Bytes from the network and from data URLs: fetching with size and time limits that
never reach private addresses unless allowed, and decoding ``data:`` URLs."""

__all__: list[str] = []
