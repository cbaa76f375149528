"""newsml/methods/twcem.py: TWCEM bounds the article by the rows that share the title's words."""

from __future__ import annotations

import json

from conftest import LABELED
from typer.testing import CliRunner

from newsml import extract
from newsml.learning.persistence import load_model
from newsml.methods import new_method
from newsml.methods.twcem import lcs_length
from newsml.run.cli import app


def test_twcem_uses_the_title_to_bound_the_article():
    # rows: a punctuated teaser, five body paragraphs, two punctuated comments; the first
    # row sharing two title tokens in order starts the article, the back half's last one
    # ends it, so teaser and comments stay out
    rows = ["Sign up, it is free.", "The harbour at Riverton closed, officials said.",
            "Ferries stayed in port.", "Wind, rain and more wind.", "Boats were moved, too.",
            "The harbour at Riverton will reopen, they said.", "Great article, thanks!", "First, lol."]
    html = ("<html><head><title>Storm closes the harbour at Riverton</title></head><body>"
            + "".join(f"<p>{row}</p>" for row in rows) + "</body></html>")
    assert extract(html, method="twcem").paragraphs == rows[1:6]
    assert lcs_length(["a", "b", "c", "d"], ["b", "d", "x"]) == 2


def test_twcem_scans_the_front_half_of_an_odd_number_of_rows():
    rows = ["Teaser one, click.", "Teaser two, click.", "The harbour at Riverton closed, they said.",
            "More, here.", "The harbour at Riverton will reopen, they said."]
    html = ("<html><head><title>Harbour at Riverton closes</title></head><body>"
            + "".join(f"<p>{row}</p>" for row in rows) + "</body></html>")
    assert extract(html, method="twcem").paragraphs == rows[2:]


def test_train_cli_writes_a_tuned_twcem_model(tmp_path):
    out = tmp_path / "twcem.joblib"
    runner = CliRunner()
    result = runner.invoke(app, ["train", str(LABELED), "--method", "twcem", "-o", str(out),
                                 "--cv-folds", "0"])
    assert result.exit_code == 0, result.output
    page = sorted(LABELED.glob("*.html"))[0]
    record = json.loads(runner.invoke(app, ["predict", str(page), "--model", str(out), "-f", "json"]).stdout)
    assert record["method"] == "twcem"
    model, metadata = load_model(out)
    assert model.get_params() == {**new_method("twcem").get_params(), **metadata["training"]["tuned_params"]}
