"""The cluster-wide LLM limit of fine mode on Ray: the permit logic, run here on asyncio (the
same class runs as a Ray actor)."""

from __future__ import annotations

import asyncio

from omnireader.batch.ray_fine import _Permits


def test_no_more_permits_than_the_limit_are_out_and_a_release_lets_the_next_in() -> None:
    async def main() -> None:
        permits = _Permits(limit=2, lease_s=60)
        a, b = await permits.acquire(), await permits.acquire()
        third = asyncio.ensure_future(permits.acquire())
        await asyncio.sleep(0.05)
        assert not third.done()  # the limit holds
        await permits.release(a)
        c = await asyncio.wait_for(third, 1)
        assert len({a, b, c}) == 3 and permits.peak_in_flight() == 2

    asyncio.run(main())


def test_a_permit_whose_holder_died_comes_back_when_its_lease_ends() -> None:
    async def main() -> None:
        permits = _Permits(limit=1, lease_s=0.2)
        await permits.acquire()  # never released: its worker was killed
        late = await asyncio.wait_for(permits.acquire(), 2)
        assert late and permits.peak_in_flight() == 1

    asyncio.run(main())
