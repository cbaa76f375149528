"""newsml/features/semantics.py: the families named by an element's class, id and itemprop,
and by its tag, up to four levels above a node."""

from __future__ import annotations

from newsml.dom.page import load_page
from newsml.features import SemanticFeatures


def test_semantic_families_look_four_levels_up_only():
    doc = load_page("""<html><body><div class="comment-list"><div><div><div><div><p>deep</p>
        </div></div></div></div><p>near</p></div><footer><p>foot</p></footer></body></html>""")
    rows = SemanticFeatures().page_features(doc)
    names = list(SemanticFeatures.feature_names)
    assert rows[0][names.index("sem_comment")] == 0     # five levels below the comment list
    assert rows[1][names.index("sem_comment")] == 1
    assert rows[2][names.index("sem_footer")] == 1


def test_semantic_families_of_ascii_words_by_first_letter_are_those_of_the_whole_pattern():
    """The pattern grouped by first letter finds what the case-blind pattern of all families
    finds: the same matches, so the same families (a match consumes what it covers)."""
    import random

    from newsml.features import semantics

    def families(words):
        return sum({1 << semantics._COLUMN[str(m.lastgroup)] for m in semantics._ANY_FAMILY.finditer(words)})

    rng = random.Random(3)
    # (word by word, ASCII words by first letter: "ſ" is an "s" to the case-blind pattern)
    alphabet = "commentfootasideREADMOREtagsbodyphotoNAVmedia_-xyz12 \u017f\u00a0"
    words = ["mediaside", "sidebarticle", "Article-Body tags", "READ-more Tag", "post_content headerbody",
             "a\u017fide tags", "foot\u00a0er"]
    words += ["".join(rng.choices(alphabet, k=rng.randrange(1, 30))) for _ in range(20000)]
    semantics._WORD_MARKS.clear()
    assert [semantics._word_families(w) for w in words] == [families(w) for w in words]
    assert semantics._word_families("mediaside") == 1 << semantics._COLUMN["caption"]  # no "aside"


def test_families_and_markup_tokens_of_attributes_alone_are_those_of_them_joined():
    """Each attribute is read alone (its cache entry is reused when another changes): the
    families and the tokens are those of the attributes joined by a space, as before."""
    import random

    from newsml.features import semantics
    from newsml.methods import markup

    rng = random.Random(5)
    alphabet = "commentFootAsideREADmoretagsBodyphotoNavmedia_-xyz12 \t"
    for _ in range(3000):
        parts = ["".join(rng.choices(alphabet, k=rng.randrange(0, 15))) for _ in range(3)]
        element = load_page("<p>x</p>").nodes[0].block
        for name, value in zip(("class", "id", "itemprop"), parts):
            element.set(name, value)
        joined = " ".join(filter(None, parts))
        expected = semantics._word_families(joined) if joined else 0
        assert semantics.marks_in_python([(element.tag, *parts)]).tolist() == [expected]
        assert markup.element_tokens(element, 0)[1:] == list(
            markup._word_tokens(" ".join(filter(None, parts[:2]))))
