"""Build of newsml's optional compiled modules; the rest is in pyproject.toml.

- ``newsml/_walk.pyx``: the segmentation walk and the other readings of every element,
  against lxml's public C API;
- ``newsml/_cleaning.pyx``: the hidden elements a parsed page loses, also against lxml's;
- ``newsml/estimators/_quickscorer.pyx``: the boosted trees' leaf masks read row by row;
- ``newsml/_text_counts.pyx``: the prose family's counts of many texts' characters, a text
  at a time;
- ``newsml/_page_bytes.pyx``: the one look at a UTF-8 page's bytes that decides whether
  they go to the parser as they are;
- ``newsml/_tree_passes.pyx``: the passes up and down a page's block tree (depths, sums,
  answers handed down);
- ``newsml/methods/_markup_tokens.pyx``: the markup family's class and id words and its
  sums of token weights;
- ``newsml/features/_semantic_marks.pyx``: the semantics family's marks of a page's kinds
  of elements.

All are optional: without a C compiler, or if one fails to build, the package installs
without it and newsml uses its Python counterpart (the same results, slower). The two that
read lxml's C structures are compiled against the lxml installed in the build
environment and record that lxml's version: newsml uses them only with the same lxml.
"""

from setuptools import Extension, setup


def compiled_modules() -> list[Extension]:
    try:
        import lxml
        from Cython.Build import cythonize
    except ImportError:       # (a build without Cython or lxml: pure Python)
        return []
    against_lxml = {"include_dirs": lxml.get_include(),
                    "define_macros": [("NEWSML_LXML_VERSION", f'"{lxml.__version__}"')]}
    extensions = [
        Extension("newsml._walk", ["newsml/_walk.pyx"], **against_lxml),
        Extension("newsml._cleaning", ["newsml/_cleaning.pyx"], **against_lxml),
        Extension("newsml.estimators._quickscorer", ["newsml/estimators/_quickscorer.pyx"]),
        Extension("newsml._text_counts", ["newsml/_text_counts.pyx"]),
        Extension("newsml._page_bytes", ["newsml/_page_bytes.pyx"]),
        Extension("newsml._tree_passes", ["newsml/_tree_passes.pyx"]),
        Extension("newsml.methods._markup_tokens", ["newsml/methods/_markup_tokens.pyx"]),
        Extension("newsml.features._semantic_marks", ["newsml/features/_semantic_marks.pyx"]),
    ]
    built = cythonize(extensions, language_level=3, quiet=True)
    for module in built:    # (cythonize drops ``optional``: a failed compile must not fail the install)
        module.optional = True
    return built


setup(ext_modules=compiled_modules())
