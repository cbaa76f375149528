"""Build of newsml's optional compiled modules; the rest is in pyproject.toml.

Every ``newsml/**/*.pyx`` is one: the C form of a hot loop, beside the Python module that
holds its twin. :mod:`newsml.core.speedups` knows them all and chooses, at run time,
between each and its Python twin.

All are optional: without a C compiler, or if one fails to build, the package installs
without it and newsml uses its Python twin (the same results, slower). Those that read
lxml's C structures are compiled against the lxml installed in the build environment
and record that lxml's version: newsml uses them only with the same lxml.
"""

from pathlib import Path

from setuptools import Extension, setup


def compiled_modules() -> list[Extension]:
    try:
        import lxml
        from Cython.Build import cythonize
    except ImportError:       # (a build without Cython or lxml: pure Python)
        return []
    from lxml import etree

    # the lxml and the libxml2 its C structures come from: newsml.core.speedups.lxml_build()
    # must give the same at run time, or the modules that read them are not used
    libxml2 = ".".join(map(str, etree.LIBXML_COMPILED_VERSION))
    against_lxml = {"include_dirs": lxml.get_include(),
                    "define_macros": [("NEWSML_LXML_VERSION", f'"{etree.__version__} libxml2 {libxml2}"')]}
    sources = sorted(Path("newsml").rglob("*.pyx"))
    extensions = [Extension(".".join(source.with_suffix("").parts), [source.as_posix()], **against_lxml)
                  for source in sources]
    built = cythonize(extensions, language_level=3, quiet=True)
    for module in built:    # (cythonize drops ``optional``: a failed compile must not fail the install)
        module.optional = True
    return built


setup(ext_modules=compiled_modules())
