"""Engine-vs-engine matches: ``draughts-match`` (also ``python3 -m protocol.match``).

Plays engines that speak the protocol of PROTOCOL.md (or Hub, ``proto=hub``) against each other
and writes the games as PDN::

    draughts-match --engine name=deep cmd="python3 -m protocol" depth=4 \\
                   --engine name=shallow cmd="python3 -m protocol" depth=2 \\
                   --variant english --games 40 --concurrency 2 --pdn out.pdn
    draughts-match ... --openings ballots                # the built-in set of the variant
    draughts-match ... --pdn out.pdn --resume            # continue an interrupted match
    draughts-match ... --pdn shard1.pdn --shard 1/2      # play one deterministic half
    draughts-match merge shard1.pdn shard2.pdn           # the combined table
    draughts-match ... --shard auto                      # the shard of a job array's task
    draughts-match --config match.json --jsonl out.jsonl # a match in a file, results as JSON
    draughts-match ... --resign score=400 movecount=3 --adjudicate-tables

The full reference is docs/match.md. The package, one concern per module, arrows pointing down:

=============  ===========================================================================
``cli``        the command line: flags, ``main``, ``merge``
``runner``     :class:`MatchRunner`: resume, worker threads, PDN file, progress, SPRT stop
``game``       :func:`play_game`: one game with a worker's engines, forfeits, PDN tags
``report``     the table and the one-line summary
``records``    PDN out (:func:`game_text`) and in, streaming (:func:`read_records`)
``config``     :class:`MatchConfig`, what a match is
``config_file`` ``--config FILE``: a JSON match as the flags it stands for
``jsonl``      ``--jsonl FILE``: a JSON line per game and per SPRT update
``adjudication`` ``--resign``, ``--draw``, ``--adjudicate-tables``
``plan``       pairings, the games in index order, shards (``--shard auto``)
``engines``    :class:`EngineSpec` from ``key=value``, starting engines (DXP ones too), stderr
``openings``   built-in sets (``data/``), opening files, generated lines
``elo``        Elo with its interval (games and game pairs), LOS, the generalised SPRT
``clock``      time controls and clocks
``errors``     :class:`MatchError` and checks of numbers from the command line
=============  ===========================================================================

Exit status: 0 finished (also when an SPRT decided early), 1 internal error, 2 bad usage, an
engine that cannot be started or a file that cannot be written, 130 interrupted (the PDN file
holds every finished game: resume).
"""

from protocol.launch import PackageLoading

with PackageLoading():  # Ctrl-C while `python3 -m protocol.match` loads: status 130, quietly
    from protocol.match.clock import Clock, TimeControl
    from protocol.match.cli import config_from_args, main, merge_main, parse_sprt
    from protocol.match.config import MatchConfig
    from protocol.match.adjudication import DrawRule, ResignRule, parse_draw, parse_resign
    from protocol.match.elo import (EloEstimate, SprtConfig, elo_interval, elo_to_score,
                                    format_elo, los, pentanomial_interval, score_to_elo,
                                    sprt_bounds, sprt_llr, sprt_llr_approx,
                                    sprt_llr_pentanomial, sprt_status)
    from protocol.match.engines import EngineSlot, EngineSpec, parse_engine, start_engine
    from protocol.match.errors import EngineStartError, MatchError
    from protocol.match.game import play_game
    from protocol.match.openings import (
        BUILTIN_SETS,
        Opening,
        OpeningError,
        builtin_openings,
        generate_openings,
        load_openings,
        resolve_openings,
    )
    from protocol.match.plan import (PlannedGame, build_pairings, build_plan, parse_shard,
                                     shard_from_environment)
    from protocol.match.records import (
        FORFEITS,
        TERMINATIONS,
        FinishedGame,
        PdnContents,
        game_text,
        read_records,
        record_from_game,
    )
    from protocol.match.report import (PairStats, SprtState, Summary, format_report, score_line,
                                       sprt_state, summarize)
    from protocol.match.runner import MatchRunner


__all__ = [
    # errors, clocks, engines
    "MatchError", "EngineStartError", "TimeControl", "Clock", "EngineSpec", "parse_engine",
    "start_engine", "EngineSlot",
    # the plan and the configuration
    "PlannedGame", "build_pairings", "build_plan", "parse_shard", "shard_from_environment",
    "MatchConfig",
    # adjudication
    "ResignRule", "DrawRule", "parse_resign", "parse_draw",
    # openings
    "Opening", "OpeningError", "BUILTIN_SETS", "builtin_openings", "load_openings",
    "generate_openings", "resolve_openings",
    # games and records
    "play_game", "FinishedGame", "TERMINATIONS", "FORFEITS", "game_text", "read_records",
    "record_from_game", "PdnContents",
    # statistics and the report
    "EloEstimate", "SprtConfig", "elo_interval", "elo_to_score", "score_to_elo", "los",
    "sprt_llr", "sprt_llr_approx", "sprt_bounds", "sprt_status", "format_elo",
    "pentanomial_interval", "sprt_llr_pentanomial",
    "PairStats", "Summary", "SprtState", "summarize", "score_line", "sprt_state",
    "format_report",
    # running
    "MatchRunner", "config_from_args", "merge_main", "parse_sprt", "main",
]
