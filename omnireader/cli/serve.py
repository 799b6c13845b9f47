"""``omnireader serve`` and ``omnireader mcp``: settings from the command line, then uvicorn
(or the MCP stdio loop). The server packages are imported only here, after the check."""

from __future__ import annotations

import argparse
import sys

from omnireader.cli.values import EXIT_FAILED, EXIT_OK
from omnireader.server import missing_extra

__all__ = ["cmd_serve", "cmd_mcp", "config_from"]

MB = 1024 * 1024


def config_from(args: argparse.Namespace) -> object:
    from omnireader.cli.settings import db_path
    from omnireader.server.config import Limits, ServerConfig, keys_from

    path, _ = db_path(args)
    limits = Limits(
        max_request_bytes=int(args.max_request_mb * MB),
        max_upload_bytes=int(args.max_upload_mb * MB),
        max_files_per_request=args.max_files,
        max_concurrent_jobs=args.max_jobs,
        rate_per_minute=args.rate_per_minute,
        max_spool_bytes=int(args.max_spool_mb * MB),
    )
    config = ServerConfig(
        db=path.resolve(),
        host=args.host,
        port=args.port,
        keys=keys_from(args.keys_file),
        insecure_no_auth=args.insecure_no_auth,
        allow_private_urls=args.allow_private_urls,
        spool=args.spool.resolve() if args.spool else None,
        workers=args.workers,
        ingest_nice=min(args.ingest_nice, 19),
        ingest_process=not getattr(args, "ingest_in_process", False),
        limits=limits,
    )
    config.check_bind()
    return config


def cmd_serve(args: argparse.Namespace) -> int:
    missing = missing_extra()
    if missing:
        print(f"omnireader: error: {missing}", file=sys.stderr)
        return EXIT_FAILED
    from omnireader.cli.settings import open_store

    open_store(args, create=True)  # a bad --db is a one-line error before anything listens
    config = config_from(args)
    llm = None
    if args.llm or args.vision_llm or args.speech_model:
        from omnireader.cli.settings import llm_backend

        llm = llm_backend(args, required=True)
    import uvicorn

    from omnireader.server.app import create_app

    # Ingest jobs run Python in this process too (their writer threads); a search thread
    # waiting for the interpreter lock behind one waits up to the switch interval at every
    # hand-over (5 ms by default, several per search). 1 ms keeps searches ahead.
    sys.setswitchinterval(0.001)

    app = create_app(config, llm=llm)  # type: ignore[arg-type]
    auth = f"{len(config.keys)} API keys" if config.keys else "no auth (loopback only)"  # type: ignore[attr-defined]
    if not args.quiet:
        print(
            f"omnireader: serving {config.db} on http://{config.host}:{config.port} "  # type: ignore[attr-defined]
            f"({auth}); docs at /docs",
            file=sys.stderr,
        )
    uvicorn.run(
        app,
        host=config.host,
        port=config.port,  # type: ignore[attr-defined]
        log_level="warning" if args.quiet else "info",
        access_log=not args.quiet,
    )
    return EXIT_OK


def cmd_mcp(args: argparse.Namespace) -> int:
    missing = missing_extra({"mcp": "mcp"})
    if missing:
        print(f"omnireader: error: {missing}", file=sys.stderr)
        return EXIT_FAILED
    from omnireader.cli.settings import db_path, open_store
    from omnireader.server.mcp_server import run_stdio

    open_store(args, create=True)
    run_stdio(db_path(args)[0].resolve(), allow_private_urls=args.allow_private_urls)
    return EXIT_OK
