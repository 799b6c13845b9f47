"""Every endpoint of `omnireader serve`, and isolation between API keys."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import omnireader

from .conftest import ALICE, BOB, KEYS, Running, start_server, wait_job


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    running = start_server(tmp_path_factory.mktemp("keyed") / "db.lance", keys=KEYS)
    yield running
    running.stop()


def _ingest(client: Any, name: str, text: str, **info: Any) -> dict[str, Any]:
    import json

    r = client.post(
        "/v1/ingest",
        files=[("files", (name, text.encode(), "text/plain"))],
        data={"info": json.dumps(info)} if info else {},
    )
    assert r.status_code == 202, r.text
    return wait_job(client, r.json()["job_id"])


def test_health_ready_and_openapi(keyed: Running) -> None:
    with keyed.client() as c:  # no key: the probes and the docs are open
        assert c.get("/healthz").json() == {"status": "ok", "version": omnireader.__version__}
        assert c.get("/readyz").json()["status"] == "ready"
        spec = c.get("/openapi.json").json()
        for path in (
            "/v1/read",
            "/v1/search",
            "/v1/ingest",
            "/v1/items/{item_id}",
            "/v1/stats",
            "/v1/items",
            "/v1/jobs/{job_id}",
            "/v1/jobs/{job_id}/events",
        ):
            assert path in spec["paths"], path
        assert "SearchRequest" in spec["components"]["schemas"]
        assert c.get("/docs").status_code == 200


def test_missing_or_wrong_key_is_401(keyed: Running) -> None:
    with keyed.client() as c:
        r = c.post("/v1/search", json={"query": "x"})
        assert r.status_code == 401 and r.json()["error"] == "unauthorized"
        r = c.post("/v1/search", json={"query": "x"}, headers={"Authorization": "Bearer nope"})
        assert r.status_code == 401


def test_read_returns_items_of_the_callers_user(keyed: Running) -> None:
    with keyed.client(ALICE) as c:
        r = c.post(
            "/v1/read",
            json={"inputs": [{"role": "user", "content": "I moved to Berlin last May."}]},
        )
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["failures"] == []
        assert body["items"][0]["memory"].endswith("I moved to Berlin last May.")
        assert body["items"][0]["metadata"]["user_id"] == "alice"  # pinned by the key
        # The Responses API shape is read too.
        r = c.post(
            "/v1/read",
            json={
                "inputs": [
                    {
                        "role": "user",
                        "content": [{"type": "input_text", "text": "My sister lives in Lyon."}],
                    }
                ]
            },
        )
        assert "Lyon" in r.json()["items"][0]["memory"]


def test_ingest_job_lifecycle_search_get_stats(keyed: Running) -> None:
    with keyed.client(ALICE) as c:
        r = c.post(
            "/v1/ingest",
            files=[
                ("files", ("notes.txt", b"The pineapple harvest doubled in Ghana.", "text/plain")),
                (
                    "files",
                    ("budget.md", b"# Budget\n\nTravel costs rose by a third.", "text/plain"),
                ),
            ],
            data={"info": '{"session_id": "s1"}'},
        )
        assert r.status_code == 202, r.text
        accepted = r.json()
        assert accepted["files"] == 2 and accepted["status"] == "queued"
        # Server-sent events: progress, then done with the final report.
        with c.stream("GET", accepted["events_url"]) as events:
            kinds = []
            for line in events.iter_lines():
                if line.startswith("event: "):
                    kinds.append(line[7:])
                if kinds and kinds[-1] == "done":
                    break
        assert kinds[-1] == "done"
        job = c.get(accepted["status_url"]).json()
        assert job["status"] == "done", job
        assert job["files_done"] == 2 and job["items_written"] >= 2 and job["failures"] == []
        assert [f["name"] for f in job["files"]] == ["notes.txt", "budget.md"]
        assert "path" not in job["files"][0]  # spool paths are not shown

        hits = c.post("/v1/search", json={"query": "pineapple harvest", "k": 3}).json()
        # The results as the library gives them, serialised the same way.
        from omnireader.store import Store

        own = Store.open(keyed.config.db, create=False).search(
            "pineapple harvest", k=3, filters={"user_id": "alice"}
        )
        assert hits["results"] == [r.model_dump(mode="json") for r in own]
        top = hits["results"][0]["item"]
        assert "pineapple" in top["memory"]
        assert top["metadata"]["user_id"] == "alice" and top["metadata"]["session_id"] == "s1"
        assert top["metadata"]["key"] == "notes.txt"  # the upload's name, not a spool path
        got = c.get(f"/v1/items/{top['id']}").json()
        assert got["id"] == top["id"] and got["memory"] == top["memory"]
        assert c.get("/v1/items/no-such-id").status_code == 404
        # Search with a view, a budget and a filter.
        fts = c.post(
            "/v1/search",
            json={
                "query": "travel costs",
                "view": "fts",
                "k": 5,
                "max_chars": 500,
                "filters": {"session_id": "s1"},
            },
        )
        assert fts.status_code == 200
        assert any("Travel" in x["text"] for x in fts.json()["results"])
        stats = c.get("/v1/stats").json()
        assert stats["user_id"] == "alice" and stats["items"] >= 2
    # The same file again: upsert by content, nothing duplicated.
    with keyed.client(ALICE) as c:
        before = c.get("/v1/stats").json()["items"]
        again = _ingest(c, "notes.txt", "The pineapple harvest doubled in Ghana.", session_id="s1")
        assert again["status"] == "done"
        assert c.get("/v1/stats").json()["items"] == before


def test_keys_isolate_users_even_with_forged_filters(keyed: Running) -> None:
    with keyed.client(ALICE) as alice:
        _ingest(alice, "secret.txt", "Alice's vault code is mango-4471.")
        mine = alice.post("/v1/search", json={"query": "vault code mango"}).json()["results"]
        secret = mine[0]["item"]
        assert "mango-4471" in secret["memory"]
    with keyed.client(BOB) as bob:
        _ingest(bob, "bob.txt", "Bob's vault code is kiwi-9000.")
        seen = bob.post("/v1/search", json={"query": "vault code mango"}).json()["results"]
        assert seen and all(r["item"]["metadata"]["user_id"] == "bob" for r in seen)
        assert not any("mango" in r["text"] for r in seen)
        forged = bob.post("/v1/search", json={"query": "mango", "filters": {"user_id": "alice"}})
        assert forged.status_code == 403
        assert bob.get(f"/v1/items/{secret['id']}").status_code == 404
        assert bob.delete("/v1/items", params={"user_id": "alice"}).status_code == 403
        # A delete by another filter only ever reaches bob's own items.
        r = bob.delete("/v1/items", params={"memory_type": "LongTermMemory"})
        assert r.status_code == 200 and r.json()["deleted"] >= 1
        assert bob.get("/v1/stats").json()["items"] == 0
        assert bob.delete("/v1/items").status_code == 400  # no filter: refused
    with keyed.client(ALICE) as alice:
        assert alice.get(f"/v1/items/{secret['id']}").status_code == 200
        job_ids = []
        r = alice.post("/v1/ingest", json={"inputs": ["Alice likes green tea."]})
        job_ids.append(r.json()["job_id"])
        assert wait_job(alice, job_ids[0])["status"] == "done"
    with keyed.client(BOB) as bob:
        assert bob.get(f"/v1/jobs/{job_ids[0]}").status_code == 404


def test_delete_dry_run_then_delete(keyed: Running) -> None:
    with keyed.client(ALICE) as c:
        _ingest(c, "temp.txt", "A temporary note about walruses.", session_id="tmp")
        dry = c.delete("/v1/items", params={"session_id": "tmp", "dry_run": "true"}).json()
        assert dry == {"deleted": 1, "updated": 0, "dry_run": True}
        assert c.delete("/v1/items", params={"session_id": "tmp"}).json()["deleted"] == 1
        hits = c.post(
            "/v1/search", json={"query": "walruses", "filters": {"session_id": "tmp"}}
        ).json()["results"]
        assert hits == []


def test_update_history_archive_rollback_of_the_callers_own_items(keyed: Running) -> None:
    with keyed.client(ALICE) as c:
        _ingest(c, "home.txt", "Alice lives in Paris, rue Oberkampf.", session_id="home")
        hit = c.post("/v1/search", json={"query": "Alice lives Oberkampf"}).json()["results"][0]
        item_id = hit["item"]["id"]
        r = c.patch(f"/v1/items/{item_id}", json={"memory": "Alice lives in Berlin, Kreuzberg."})
        assert r.status_code == 200 and r.json()["metadata"]["version"] == 2
        versions = c.get(f"/v1/items/{item_id}/history").json()["versions"]
        assert [(v["metadata"]["version"], v["metadata"]["status"]) for v in versions] == [
            (1, "archived"),
            (2, "activated"),
        ]
        asked = {"query": "Oberkampf", "filters": {"session_id": "home"}}
        now = c.post("/v1/search", json=asked).json()["results"]
        assert not any("Oberkampf" in r["text"] for r in now)
        old = c.post("/v1/search", json={**asked, "include_archived": True}).json()["results"]
        assert "Oberkampf" in old[0]["text"]
        assert old[0]["item"]["metadata"]["superseded_by"] == item_id
        assert c.post(f"/v1/items/{item_id}/rollback", json={"version": 9}).status_code == 404
        back = c.post(f"/v1/items/{item_id}/rollback", json={"version": 1}).json()
        assert "Oberkampf" in back["memory"] and back["metadata"]["version"] == 3
    with keyed.client(BOB) as bob:  # another user's item is as absent as a missing one
        assert bob.patch(f"/v1/items/{item_id}", json={"memory": "x"}).status_code == 404
        assert bob.get(f"/v1/items/{item_id}/history").status_code == 404
        assert bob.post("/v1/items/archive", json={"ids": [item_id]}).json() == {"archived": 0}
    with keyed.client(ALICE) as c:
        r = c.post("/v1/items/archive", json={"ids": [item_id], "reason": "conflict"})
        assert r.json() == {"archived": 1}
        assert c.get(f"/v1/items/{item_id}").status_code == 404
