"""Build of newsml's optional compiled walk (``newsml/_walk.pyx``); the rest is in pyproject.toml.

The extension is optional: without a C compiler, or if it fails to build, the package
installs without it and ``newsml.nodes`` walks the tree in Python (the same results,
slower). It reads lxml's C structures, so it is compiled against the lxml installed in
the build environment and records that lxml's version: ``newsml.nodes`` uses it only
with the same lxml.
"""

from setuptools import Extension, setup


def compiled_walk() -> list[Extension]:
    try:
        import lxml
        from Cython.Build import cythonize
    except ImportError:       # (a build without Cython or lxml: pure Python)
        return []
    extension = Extension("newsml._walk", ["newsml/_walk.pyx"], include_dirs=lxml.get_include(),
                          define_macros=[("NEWSML_LXML_VERSION", f'"{lxml.__version__}"')])
    built = cythonize([extension], language_level=3, quiet=True)
    for module in built:    # (cythonize drops ``optional``: a failed compile must not fail the install)
        module.optional = True
    return built


setup(ext_modules=compiled_walk())
