"""Build of newsml's optional compiled modules; the rest is in pyproject.toml.

- ``newsml/_walk.pyx``: the segmentation walk and the other readings of every element,
  against lxml's public C API;
- ``newsml/estimators/_quickscorer.pyx``: the boosted trees' leaf masks read row by row.

Both are optional: without a C compiler, or if one fails to build, the package installs
without it and newsml uses its Python counterpart (the same results, slower). The walk
reads lxml's C structures, so it is compiled against the lxml installed in the build
environment and records that lxml's version: ``newsml.nodes`` uses it only with the
same lxml.
"""

from setuptools import Extension, setup


def compiled_modules() -> list[Extension]:
    try:
        import lxml
        from Cython.Build import cythonize
    except ImportError:       # (a build without Cython or lxml: pure Python)
        return []
    extensions = [
        Extension("newsml._walk", ["newsml/_walk.pyx"], include_dirs=lxml.get_include(),
                  define_macros=[("NEWSML_LXML_VERSION", f'"{lxml.__version__}"')]),
        Extension("newsml.estimators._quickscorer", ["newsml/estimators/_quickscorer.pyx"]),
    ]
    built = cythonize(extensions, language_level=3, quiet=True)
    for module in built:    # (cythonize drops ``optional``: a failed compile must not fail the install)
        module.optional = True
    return built


setup(ext_modules=compiled_modules())
