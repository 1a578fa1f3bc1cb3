"""`make demo` runs `python -m solver.demo`; a small run shows every section."""

from __future__ import annotations

from solver.demo import main


def test_demo_shows_every_section(capsys):
    # turns 20 on a 4x4 forest: small enough for the exact solve to fit in the memory cap
    assert main(["--seed", "1", "--size", "4x4", "--iterations", "200", "--games", "5",
                 "--policy-iterations", "50"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    for heading in ("== A rolled forest", "== Win probability", "== Best first move",
                    "== One game", "== The pencilled sheet"):  # fmt: skip
        assert heading in out
    assert "roll: 1 step (p=0.333)" in out
    assert out.rstrip().endswith(("the dog reached its human.", "the human went home."))
