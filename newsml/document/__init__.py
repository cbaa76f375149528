"""The article as a document: the roles of its kept nodes (headings, lists, tables, quotes,
code, figures) and their rendering as Markdown and HTML; its metadata (author, dates,
site, canonical address, description, lead image, tags, the Chinese outlet)."""
