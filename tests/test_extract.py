"""newsml/extract.py: one page in, one article out; the method by name or instance."""

from __future__ import annotations

import pytest
from conftest import LABELED

from newsml import ConfigurationError, extract, load_model
from newsml.methods import new_method


def test_a_method_that_is_neither_a_name_nor_a_method_is_a_clear_error(tmp_path):
    """A load_model result passed whole was an AttributeError from deep inside ('tuple'
    object has no attribute 'strip')."""
    from newsml import save_model

    model = load_model(save_model(new_method("econ"), tmp_path / "econ.joblib"))
    sentence = "<p>One sentence, with a comma.</p>"
    with pytest.raises(ConfigurationError, match=r"not tuple: load_model returns \(method, metadata\)"):
        extract(sentence, method=model)
    with pytest.raises(ConfigurationError, match="not int"):
        extract(sentence, method=3)
    assert extract(sentence, method=model[0]).text == "One sentence, with a comma."


def test_extract_loads_a_shipped_model_once(monkeypatch):
    """The first extraction by a method's name loads its model file (here, or in an earlier
    test: once per process); none after it does, whatever the name's case: they share the
    one method that scorer_for gives."""
    import importlib

    from newsml.extract import scorer_for

    module = importlib.import_module("newsml.extract")  # the attribute newsml.extract is the function
    page = "<html><body><p>One sentence, with a comma. Another one, here.</p></body></html>"
    first = extract(page, method="nb")
    loads = []
    real = module.get_method

    def counting(name, **options):
        loads.append(name)
        return real(name, **options)

    monkeypatch.setattr(module, "get_method", counting)
    assert extract(page, method="nb").text == first.text and extract(page, method="NB").text == first.text
    assert loads == []
    assert scorer_for("NB") is scorer_for("nb") and scorer_for("nb").name == "nb"


def test_the_text_alone_is_the_articles_text(default_method):
    from newsml.article import extract_page, extract_text
    from newsml.dom.page import load_page

    for path in sorted(LABELED.glob("*.html")):
        page = load_page(path.read_bytes())
        assert extract_text(page, default_method) == extract_page(page, default_method).text, path.name


def test_text_only_gives_the_same_title_and_text_without_the_document():
    from newsml import NewsmlError

    for path in sorted(LABELED.glob("*.html"))[:12]:
        whole, alone = extract(path), extract(path, text_only=True)
        assert (alone.title, alone.text, alone.scores) == (whole.title, whole.text, whole.scores), path.name
        assert alone.date is None and alone.author is None and alone.blocks == []
        assert alone.to_dict()["markdown"] is None and whole.to_dict()["markdown"].startswith("# ")
        for document in ("markdown", "html"):
            with pytest.raises(NewsmlError, match="text_only=True: it has no " + document):
                getattr(alone, document)
