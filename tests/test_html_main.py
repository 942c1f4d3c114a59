"""HTML main content: navigation and boilerplate out, admonitions kept under their heading, headings under
the page title.

On the committed Python Library Reference page (real Sphinx output) and on pages shaped like the generators
that were seen to fail (DocBook navigation headers and footers, Publican's prev/up/home/next lists, link
tables, admonition boxes, reference pages whose headings lack the page title)."""

from __future__ import annotations

import re
from pathlib import Path

from sleuth.ingest import TokenCounter, chunk_markdown
from sleuth.ingest.convert import convert_bytes, convert_file
from sleuth.ingest.convert.html_main import clean_html, links_only, redirect_target
from sleuth.ingest.visible import visible_text

DOCS = Path(__file__).parent / "data" / "docs"
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")

PAGE = b"""<!DOCTYPE html><html><head><title>VACUUM</title></head><body>
<div class="navheader"><table width="100%"><tr><td><a accesskey="p" href="a.html">Prev</a></td>
<td><a accesskey="u" href="b.html">Up</a></td><td><a accesskey="n" href="c.html">Next</a></td></tr>
</table></div>
<ul class="docnav"><li><a href="p.html"><strong>Prev</strong> 11.8. Services</a></li><li><a href="#">
<strong>Up</strong></a></li><li><a href="index.html"><strong>Home</strong></a></li><li><a href="n.html">
<strong>Next</strong> 12. Storage</a></li></ul>
<div class="sidebar"><ul><li><a href="x.html">Every</a></li><li><a href="y.html">other</a></li>
<li><a href="z.html">page</a></li></ul></div>
<div class="refsect1"><h2>Description</h2><p>VACUUM reclaims storage occupied by dead tuples.</p>
<div class="note"><h3>Note</h3><p>Plain VACUUM does not lock the table.</p></div>
<h2>Parameters</h2><p>FULL selects a full vacuum, which can reclaim more space.</p>
<p>See also: <a href="analyze.html">ANALYZE</a>, <a href="cluster.html">CLUSTER</a> and
<a href="reindex.html">REINDEX</a>, which rebuild what VACUUM only cleans.</p></div>
<div class="navfooter"><a href="a.html">Prev</a> | <a href="index.html">Home</a> |
<a href="c.html">Next</a></div>
<footer>Copyright the authors</footer></body></html>"""


def test_navigation_and_boilerplate_are_removed_and_content_kept() -> None:
    cleaned = clean_html(PAGE)
    result = convert_bytes(PAGE, "http://127.0.0.1/vacuum.html")
    markdown = result.markdown
    for junk in ("Prev", "Next", "Home", "Every", "Copyright"):
        assert junk not in markdown, junk
    assert "VACUUM reclaims storage occupied by dead tuples." in markdown
    assert "[ANALYZE]" in markdown or "ANALYZE" in markdown  # links inside prose stay
    assert sum(cleaned.removed.values()) >= 4


def test_admonitions_stay_under_their_heading_and_headings_are_rooted_under_the_title() -> None:
    markdown = convert_bytes(PAGE, "http://127.0.0.1/vacuum.html").markdown
    headings = re.findall(r"^(#+) (.+)$", markdown, re.M)
    assert headings[0] == ("#", "VACUUM")
    assert ("##", "Description") in headings and ("##", "Parameters") in headings
    assert not any(title == "Note" for _, title in headings)  # the note box did not become a heading
    # The box's text stays under the heading it is in, its title a bold label.
    description = markdown.split("## Description", 1)[1].split("## Parameters", 1)[0]
    assert "**Note**" in description and "Plain VACUUM does not lock the table." in description


def test_real_sphinx_page_has_no_navigation_chunks(counter: TokenCounter) -> None:
    result = convert_file(DOCS / "csv.html")
    chunks = chunk_markdown(result.markdown, counter, max_tokens=256)
    for chunk in chunks:
        if chunk.chunk_type == "toc":
            continue
        links = _LINK.findall(chunk.content)
        words = {t.strip().lower() for t in links}
        assert len(words & {"previous", "next", "index", "modules"}) < 2, chunk.content[:200]
    assert all(c.section_path.startswith("csv") for c in chunks if c.section_path)


def test_a_manuals_top_page_lists_its_chapters_as_a_table_of_contents(counter: TokenCounter) -> None:
    # GNU m4's index.html: an introduction, then its chapters, each item nothing but a link to a page of the
    # manual. Typed as a list, its entries had filled four of a long request's first ten hits.
    page = (
        b"<html><head><title>GNU M4</title></head><body><h1>GNU M4</h1>"
        b"<p>This manual is for GNU M4, a package containing an implementation of the m4 macro language.</p>"
        b"<ul><li><a href='Shell-commands.html'>13 Macros for running shell commands</a><ul>"
        b"<li><a href='Platform-macros.html'>13.1 Determining the platform</a></li>"
        b"<li><a href='Syscmd.html'>13.2 Executing simple commands</a></li></ul></li>"
        b"<li><a href='Miscellaneous.html'>14 Miscellaneous builtin macros</a></li>"
        b"<li><a href='Frozen-files.html'>15 Fast loading of frozen state</a></li></ul>"
        b"<p>See the <a href='https://www.gnu.org/software/m4/'>home page</a> for news.</p>"
        b"<ul><li>Reads its <a href='Invoking.html'>options</a> from the command line.</li>"
        b"<li>Writes its output to standard output.</li><li>Exits with status 0.</li></ul></body></html>"
    )
    markdown = convert_bytes(page, "http://127.0.0.1/index.html").markdown
    chunks = chunk_markdown(markdown, counter, max_tokens=64)
    contents = [c for c in chunks if "Determining the platform" in c.content]
    assert contents and all(c.chunk_type == "toc" for c in contents)
    # A list of links to articles of a wiki (no pages of a manual) is content: senators, not chapters.
    senators = chunk_markdown(
        "# Senators\n\n" + "".join(f"- [Senator {n}](/wiki/Senator_{n})\n" for n in range(4)), counter
    )
    assert all(c.chunk_type != "toc" for c in senators)
    # A list whose items say something besides a link is content.
    assert any(c.chunk_type != "toc" for c in chunks if "Writes its output" in c.content)


TEXINFO_CHAPTER = (
    b"""<!DOCTYPE html><html><head><title>Acknowledgements (Octave C++ Classes)</title></head>
<body><div class="chapter" id="Acknowledgements"><div class="header"><p>
Next: <a href="Copying.html" accesskey="n" rel="next">GNU GENERAL PUBLIC LICENSE</a> &nbsp;
[<a href="index.html#SEC_Contents" rel="contents">Contents</a>]
[<a href="Concept-Index.html">Index</a>]</p></div>
<hr><h2 class="chapter">1 Acknowledgements</h2>
<ul class="section-toc"><li><a href="Contributors.html" accesskey="1">Contributors to Octave</a></li></ul>
<p>Many people have contributed to the classes described in this manual.</p>
<table><tr><th>Jump to: &nbsp; </th><td>"""
    + b" ".join(b'<a href="#%s"><b>%s</b></a>' % (c, c) for c in (bytes([x]) for x in b"ABCDFIKLMNOPRSTVW"))
    + b"""</td></tr></table>
<hr><div class="header"><p>Next: <a href="Copying.html">GNU GENERAL PUBLIC LICENSE</a>, Up:
<a href="index.html">Top</a> &nbsp; [<a href="index.html#SEC_Contents">Contents</a>]
[<a href="Concept-Index.html">Index</a>]</p>
</div></div></body></html>"""
)


def test_texinfo_navigation_goes_and_the_chapter_that_holds_it_stays() -> None:
    """Texinfo's chapter pages: the chapter block holds its own navigation header, so a block with a
    heading is never taken for a navigation bar; the bottom bar's links are labelled (Next:, Up:), and a
    bar of one-letter index links is mostly spaces."""
    markdown = convert_bytes(TEXINFO_CHAPTER, "http://127.0.0.1/Acknowledgements.html").markdown
    assert "1 Acknowledgements" in markdown
    assert "Many people have contributed" in markdown
    assert "GNU GENERAL PUBLIC LICENSE" not in markdown
    assert "Jump to" not in markdown


def test_a_placeholder_inside_inline_code_stays_in_one_code_span() -> None:
    """Texinfo marks a placeholder inside code (``<code>${!<var>name</var>[@]}</code>``, Bash's manual):
    Docling would split the code around an emphasis, and quotes read ``${! name [@]}``."""
    page = b"""<!DOCTYPE html><html><head><title>Arrays</title></head><body><h1>Arrays</h1>
<p>The expansion <code class="code">${!<var class="var">name</var>[@]}</code> expands to the indices
of <var class="var">name</var>, and <kbd>C-x <var>k</var></kbd> kills it.</p></body></html>"""
    markdown = convert_bytes(page, "http://127.0.0.1/Arrays.html").markdown
    assert "`${!name[@]}`" in markdown
    assert "`C-x k`" in markdown
    # A placeholder in prose with space around it keeps its emphasis; one written against the text beside
    # it is read as that text (Docling would set it apart: "of name , and").
    assert "of name, and" in markdown
    spaced = convert_bytes(
        b"<html><head><title>T</title></head><body><h1>T</h1><p>Set <var>name</var> to a value, then "
        b"<span>smtp_receive_timeout</span>. Listen on IPv<span>x</span>; <em>Warning</em>: do not.</p>"
        b"</body></html>",
        "http://127.0.0.1/T.html",
    ).markdown
    assert "Set *name* to" in spaced
    assert "then smtp\\_receive\\_timeout. Listen on IPvx; Warning: do not." in spaced
    # A superscript stays apart from the number before it: 10<sup>6</sup> is no 106.
    power = convert_bytes(
        b"<html><head><title>T</title></head><body><h1>T</h1><p>It holds 10<sup>6</sup> rows.</p>"
        b"</body></html>",
        "http://127.0.0.1/P.html",
    ).markdown
    assert "106" not in power


def test_a_definition_that_holds_a_list_of_definitions_keeps_its_text() -> None:
    """Texinfo's option tables (the flex manual's "-C[aefFmr]") nest a list of definitions in a definition:
    Docling dropped the definition's own text around the inner list, default setting and all."""
    page = b"""<!DOCTYPE html><html><head><title>Speed</title></head><body><h1>Speed and Size</h1>
<dl><dt><span>-C[aefFmr]</span></dt>
<dd><p>controls the degree of table compression.</p>
<dl><dt><span>-C</span></dt><dd><p>A lone -C compresses the tables.</p></dd></dl>
<p>The default setting is -Cem, the highest degree of compression.</p></dd>
<dt>-f</dt><dd><p>specifies the fast scanner.</p></dd></dl></body></html>"""
    markdown = convert_bytes(page, "http://127.0.0.1/Speed.html").markdown
    for text in ("controls the degree", "default setting is -Cem", "A lone -C", "specifies the fast"):
        assert text in markdown


def test_a_chapter_named_like_boilerplate_is_the_page() -> None:
    """A chapter whose container is named "Copyright" (Texinfo names it by its node) is the page's content,
    not a footer; a copyright footer beside the content still goes."""
    page = b"""<!DOCTYPE html><html><head><title>Copyright</title></head><body>
<div class="chapter" id="Copyright"><h2>1 Copyright</h2>
<p>The flex manual is placed under the same licensing conditions as the rest of flex.</p>
<p>Redistribution and use in source and binary forms, with or without modification, are permitted.</p>
</div><div class="copyright">Page generated by a tool, all rights reserved.</div></body></html>"""
    markdown = convert_bytes(page, "http://127.0.0.1/Copyright.html").markdown
    assert "same licensing conditions" in markdown and "Redistribution" in markdown
    assert "Page generated" not in markdown


def test_a_page_without_a_declared_encoding_is_read_as_utf8_when_it_is() -> None:
    """A page cut out of a larger one, or generated, often declares no charset: lxml would read its UTF-8
    bytes as Latin-1 ("a â€˜@â€™"). Undeclared bytes that are not UTF-8 are still read as Latin-1."""
    body = (
        "<html><head><title>Completion – Bash</title></head><body><h1>Completion</h1><p>A word containing a "
    )
    utf8 = (body + "‘@’ is completed as a hostname.</p></body></html>").encode()
    converted = convert_bytes(utf8, "http://127.0.0.1/Completion.html")
    assert "'@' is completed" in converted.markdown  # curly quotes are stored straight
    assert "â" not in converted.markdown
    assert converted.title == "Completion – Bash"
    latin = (body + "caf\xe9 is completed.</p></body></html>").replace("–", "-").encode("latin-1")
    assert "café is completed" in convert_bytes(latin, "http://127.0.0.1/Cafe.html").markdown
    declared = (
        b'<html><head><meta charset="windows-1252"><title>T</title></head><body><p>\x93quoted\x94 text here.'
    )
    # A declared encoding is honoured (0x93/0x94 are curly quotes in windows-1252, stored straight).
    assert (
        '"quoted" text' in convert_bytes(declared + b"</p></body></html>", "http://127.0.0.1/D.html").markdown
    )


def test_a_page_that_only_redirects_is_known_by_its_target() -> None:
    alias = (
        '<html><head><meta http-equiv="refresh" content="0; URL=\'Files.html#Startup\'"></head>'
        "<body>The node you are looking for is at <a href='Files.html#Startup'>Startup</a>.</body></html>"
    )
    assert redirect_target(alias) == "Files.html#Startup"
    # A page with text of its own that also refreshes (a status page) is a page.
    words = " ".join(["The build finished and every test passed on every platform we support."] * 5)
    refresh = '<meta http-equiv="refresh" content="30; url=status.html">'
    assert redirect_target(f"<html><head>{refresh}</head><body>{words}</body></html>") is None
    assert redirect_target(f"<html><body><p>{words}</p></body></html>") is None


def test_a_page_of_links_only_is_known_as_one() -> None:
    # A Texinfo index: every entry and every section it points to is a link.
    rows = "".join(
        f'<tr><td><a href="Options.html#index-{n}">OPTION_{n}</a>:</td><td><a href="Options.html">16.2 '
        f"Description of Options</a></td></tr>"
        for n in range(40)
    )
    index = f"<html><body><h2>Options Index</h2><table>{rows}</table></body></html>"
    assert links_only(index)
    # An index whose entries are terms over links (Exim's concept index: three quarters link text) is one.
    entries = "".join(
        f'<li><b>option {n}</b><ul><li><a href="ch-main.html#{n}">Main configuration [Alphabetical list of '
        f"main options]</a></li></ul></li>"
        for n in range(40)
    )
    assert links_only(f"<html><body><h2>Concept Index</h2><ul>{entries}</ul></body></html>")
    # A page that links as much but says something of its own is a document.
    prose = "<p>" + " ".join(["Each option below changes how the shell reads history files."] * 30) + "</p>"
    assert not links_only(index.replace("</h2>", f"</h2>{prose}"))


#: A manual generated from plain text (HAProxy's management guide is laid out this way): every description
#: is a ``<pre>`` under the command it describes; prose, a list, a term over its indented description, an
#: example and a shell session share one block. (Text written for this test.)
PRE_PAGE = b"""<!DOCTYPE html><html><head><title>Proxy Management Guide</title></head><body>
<h1>Proxy Management Guide</h1><h2>9.3. Socket commands</h2>
<div class="keyword"><b><a href="#9.3-disable%20server">disable server</a></b>
<span>&lt;backend&gt;</span>/<span>&lt;server&gt;</span></div><pre class="text">Mark the server DOWN for
maintenance. In this mode, no more checks will be performed on the server
until it leaves maintenance.

The proxy needs to be started as root in order to :
  - adjust the file descriptor limits
  - bind to privileged port numbers

commit map @&lt;ver&gt; &lt;map&gt;
  Commit all changes made to version &lt;ver&gt; of map &lt;map&gt;, and deletes
  all past versions.

  Example :
        $ echo "disable server app/web1" | socat stdio /var/run/proxy.sock

  field      meaning
  pxname     proxy name
  svname     service name
</pre><pre class="code">if (state == DOWN) {
    notify(server);
}</pre></body></html>"""


def test_prose_laid_out_in_preformatted_text_reads_as_paragraphs(counter: TokenCounter) -> None:
    """Read as code, such a manual's prose was never quoted and its reports were empty although search found
    the answer. Prose, list items and a term over its description become text; the example, the table laid
    out in columns and the real code stay code blocks, their lines as they were."""
    markdown = convert_bytes(PRE_PAGE, "http://127.0.0.1/management.html").markdown
    assert (
        "Mark the server DOWN for maintenance. In this mode, no more checks will be performed on the server "
        "until it leaves maintenance." in markdown
    )
    assert "- adjust the file descriptor limits" in markdown
    assert "\nCommit all changes made to version" in markdown  # the description, a paragraph of its own
    fenced = re.findall(r"```[^\n]*\n(.*?)```", markdown, re.S)
    assert any("$ echo" in block and "Example :" in block for block in fenced)
    assert any("pxname     proxy name" in block for block in fenced)
    assert any("notify(server);" in block for block in fenced)
    assert not any("Mark the server" in block or "adjust the file" in block for block in fenced)
    chunks = chunk_markdown(markdown, counter, document_id="management")
    prose = [c for c in chunks if "Mark the server DOWN" in c.content]
    assert prose and prose[0].chunk_type == "text"


#: A manual page rendered as preformatted text (Postfix's HTML manual pages are laid out this way): section
#: names in capitals, justified and hyphenated lines, tagged paragraphs with the tag beside the text,
#: parameters with their defaults over their descriptions. (Text written for this test.)
MAN_PAGE = b"""<html><head><title>Relay manual - spoold(8)</title></head><body><pre>
SPOOLD(8)                                                            SPOOLD(8)

<b>NAME</b>
       spoold - relay spool manager

<b>DESCRIPTION</b>
       The  <a href="s.html"><b>spoold</b>(8)</a>  daemon  awaits  the arrival of incoming mail and arranges
       for its delivery. Mail addressed to the local double-bounce address is
       logged and dis-
       carded.

       The <b>spoold</b>(8) daemon maintains the following queues:

       <b>incoming</b>
              Inbound mail from the network, or mail picked up by the local
              pickup(8) daemon.

       <b>hold</b>   Messages that are kept "on hold" are  kept  here  until  someone
              sets them free.

<b>CONFIGURATION PARAMETERS</b>
       <b>spool_clog_warn_time (300s)</b>
              The minimal delay between warnings that a  specific  destination
              is clogging up the active queue; see $spool_directory.

<b>SEE ALSO</b>
       pickup(8), local pickup
       postconf(5), configuration parameters
</pre></body></html>"""


def test_a_manual_page_in_preformatted_text_reads_as_sections_and_terms() -> None:
    markdown = convert_bytes(MAN_PAGE, "http://127.0.0.1/spoold.8.html").markdown
    assert "## DESCRIPTION" in markdown and "## CONFIGURATION PARAMETERS" in markdown
    # Justified lines read with single spaces, a word hyphenated at a line's end whole again.
    assert (
        "The spoold(8) daemon awaits the arrival of incoming mail and arranges for its delivery." in markdown
    )
    assert "logged and discarded." in markdown
    # A tag beside its text and a parameter with its default stand over their descriptions.
    assert (
        '\nhold\n\nMessages that are kept "on hold" are kept here until someone sets them free.' in markdown
    )
    assert "spool\\_clog\\_warn\\_time (300s)\n\nThe minimal delay between warnings" in markdown
    fenced = re.findall(r"```[^\n]*\n(.*?)```", markdown, re.S)
    assert any("postconf(5), configuration parameters" in block for block in fenced)
    assert not any("Inbound mail" in block for block in fenced)


def test_an_entry_whose_description_holds_several_blocks_is_read_in_order() -> None:
    """Sphinx sets each statement of a reference as a definition list entry (BIND's manual, Python's):
    Docling read the description as one line and moved its list after all its paragraphs, so "The default
    size limit is:" read on with the sentence after the list, a false statement quoted verbatim. (Text
    written for this test.)"""
    page = b"""<html><head><title>Grammar</title></head><body><h1>Grammar</h1><h2>Resource limits</h2>
<dl class="statement"><dt id="cache-size">cache-size<a class="headerlink" href="#cache-size">\xc2\xb6</a></dt>
<dd><p>Sets the largest amount of memory a cache may use.</p>
<p>The default size limit for each cache is:</p>
<blockquote><div><ul><li><p>90% of physical memory with recursion on, or</p></li>
<li><p>2 MB with recursion off.</p></li></ul></div></blockquote>
<p>Any positive value smaller than 2 MB is reset to 2 MB.</p></dd></dl>
<dl class="statement"><dt>-u</dt><dt>--update</dt><dd>Updates <code>the cache</code> in place.
<p>Only the changed records are written.</p></dd></dl>
<h2>Logging</h2><dl><dt>severity</dt><dd><p>How much is logged.</p></dd></dl>
<dl><dt>channel</dt><dd><p>Where it goes.</p><p>A file or syslog.</p></dd></dl>
<p>If no channel is given, the default channel is used.</p></body></html>"""
    markdown = convert_bytes(page, "http://127.0.0.1/grammar.html").markdown
    # Only entries until the next heading: each entry a section, several names of one entry one heading.
    assert "### cache-size\n" in markdown and "### -u, --update\n" in markdown
    size = markdown.index("The default size limit for each cache is:")
    assert size < markdown.index("90% of physical memory") < markdown.index("Any positive value smaller")
    assert "The default size limit for each cache is: Any positive" not in markdown
    assert "Updates `the cache` in place.\n\nOnly the changed records" in markdown  # its lead kept whole
    # A paragraph after the entries: they become bold terms, and the paragraph stays under "Logging".
    assert "**channel**\n\nWhere it goes." in markdown and "### channel" not in markdown
    assert "**severity**\n\nHow much is logged." in markdown
    assert markdown.rstrip().endswith("If no channel is given, the default channel is used.")


def test_entries_nested_in_an_entry_are_read_and_the_page_is_kept() -> None:
    """Sphinx nests lists of entries in an entry ("Environment Variables: General: BORG_REPO ..."): the
    elements the entry reading makes were plain XML elements, and reading the nested list's text crashed
    the conversion, so a reference page was dropped whole. (Text written for this test.)"""
    page = b"""<html><head><title>General</title></head><body><h1>General</h1><h2>Environment</h2>
<p>The tool reads these variables:</p>
<dl><dt>General:</dt><dd><dl>
<dt>TOOL_REPO</dt><dd><p>Where the repository is.</p><p>A path or a URL.</p></dd>
<dt>TOOL_PASSCOMMAND</dt><dd><p>A command whose output is the passphrase.</p>
<p>Note that the command is executed without a shell.</p></dd></dl></dd>
<dt>Some tuning:</dt><dd><dl><dt>TOOL_CACHE_TTL</dt><dd><p>How many backups a cache entry lives.</p>
<p>The default is 20.</p></dd></dl></dd></dl>
<h2>Return codes</h2><p>0 means success.</p></body></html>"""
    markdown = convert_bytes(page, "http://127.0.0.1/general.html").markdown.replace("\\_", "_")
    assert "Note that the command is executed without a shell." in markdown
    # Read inside out: the inner entries taken out, the outer ones hold several blocks and are sections too.
    assert "### General:\n" in markdown and "#### TOOL_CACHE_TTL\n" in markdown
    assert (
        markdown.index("TOOL_REPO")
        < markdown.index("Where the repository is.")
        < markdown.index("TOOL_PASSCOMMAND")
    )
    assert markdown.index("TOOL_CACHE_TTL") < markdown.index("The default is 20.")
    assert "0 means success." in markdown


def test_a_table_of_options_in_groups_reads_as_term_lines() -> None:
    """Sphinx's argparse tables (borg's): no header, a row across the table names each group, the rows under
    it hold a spacer cell, the option and its description. Docling took the first group's name for the
    header of every piece ("positional arguments — --save-space | work slower"). (Text written for this
    test.)"""
    page = b"""<html><head><title>tool create</title></head><body><h1>tool create</h1>
<table class="options-table"><tbody>
<tr><td colspan="3"><p><strong>positional arguments</strong></p></td></tr>
<tr><td></td><td><p><code>ARCHIVE</code></p></td><td><p>name of the archive to create</p></td></tr>
<tr><td colspan="3"><p><strong>options</strong></p></td></tr>
<tr><td></td><td><p><code>-n</code>, <code>--dry-run</code></p></td>
<td><p>do not create an archive</p></td></tr>
<tr><td></td><td><p><code>-c SECONDS</code></p></td>
<td><p>write a checkpoint every SECONDS (Default: 1800)</p></td></tr>
</tbody></table>
<table><tr><td>lz4</td><td>fast</td></tr><tr><td>zstd</td><td>small</td></tr></table>
</body></html>"""
    markdown = convert_bytes(page, "http://127.0.0.1/create.html").markdown
    assert "**positional arguments**\n\n**ARCHIVE**\n\nname of the archive to create" in markdown
    assert "**options**\n\n**-n, --dry-run**\n\ndo not create an archive" in markdown
    assert "**-c SECONDS**\n\nwrite a checkpoint every SECONDS (Default: 1800)" in markdown
    assert "| positional arguments" not in markdown
    assert "| lz4" in markdown  # a table without groups stays a table


def test_prose_in_preformatted_text_keeps_its_compounds_and_margins() -> None:
    """A hyphen at a line's end is a compound's unless the text is justified (groff hyphenates); a name in
    capitals indented under a section is a term, not a section of its own. (Text written for this test.)"""
    page = b"""<html><head><title>Guide</title></head><body><h1>Guide</h1><pre class="text">
The health checks are ping-
based and run every two seconds on each server of the farm.
</pre><pre>
SIGNALS
       The daemon reacts to the following signals, as listed below:

       SIGTERM
              Stop accepting connections and exit once the queue is empty.
</pre><pre class="language-shell">$ relayd -f relayd.cfg</pre></body></html>"""
    markdown = convert_bytes(page, "http://127.0.0.1/guide.html").markdown
    assert "The health checks are ping-based and run every two seconds" in markdown
    assert "## SIGNALS" in markdown or "# SIGNALS" in markdown
    assert "\nSIGTERM\n\nStop accepting connections" in markdown and "# SIGTERM" not in markdown
    assert "$ relayd -f relayd.cfg" in markdown


def test_a_star_of_the_text_is_no_emphasis(counter: TokenCounter) -> None:
    """rsyslog's imfile: "/var/log/*/*.log works." Docling escapes "_" but not "*", so the Markdown read
    "/var/log//.log" once its stars were taken for an emphasis. A star in code is code's."""
    page = (
        "<html><head><title>imfile</title></head><body><h1>imfile</h1><ul>"
        "<li><p>/var/log/*/*.log <strong>works</strong>. *</p></li></ul>"
        "<p>Match <code>*.log</code>, and <em>this</em> stays, 2*3 = 6 — naïve; "
        "<code>*.conf</code> files.</p>"
        "<pre>ls *.log\n# a comment *</pre></body></html>"
    ).encode()
    markdown = convert_bytes(page, "http://127.0.0.1/imfile.html").markdown
    assert "/var/log/\\*/\\*.log" in markdown and "2\\*3 = 6" in markdown
    # (code glued to the comma after it is read as text, its star escaped as any other)
    assert "Match \\*.log," in markdown and "*this*" in markdown and "naïve" in markdown
    assert "`*.conf` files" in markdown
    assert "ls *.log\n# a comment *" in markdown
    # A star after a comment is text too; an icon font's glyph at the placeholder's code point is no star.
    after = convert_bytes(
        "<html><head><title>T</title></head><body><h1>T</h1>"
        "<p>a <!-- c --> b *x* c \ue02a d</p></body></html>".encode(),
        "http://127.0.0.1/C.html",
    ).markdown
    assert "b \\*x\\* c" in after and "\\* d" not in after and "\ue02a" not in after
    assert any(
        "/var/log/*/*.log works. *" in visible_text(c.content).text for c in chunk_markdown(markdown, counter)
    )


def test_sphinx_asides_code_stars_and_option_dashes_are_the_page_s_text() -> None:
    """Celery's manual (Sphinx 5, docutils 0.18): topics, sidebars and footnotes stand in ``<aside>``, inline
    code in a table's definition list is written as plain text by Docling, and smart quotes turn an option's
    "--" into an en dash, which Docling writes as one hyphen."""
    page = (
        "<html><head><title>Workers</title></head><body><div class='body'><h1>Workers</h1>"
        "<p>Enable a soft time limit (<cite>\u2013soft-time-limit</cite>); pages 10\u201320, "
        "Paris\u2013Rome.</p>"
        "<aside class='sidebar'><p class='sidebar-title'>Soft, or hard?</p>"
        "<p>The soft time limit allows the task to catch an exception to clean up.</p></aside>"
        "<aside class='footnote brackets' role='note'><span class='label'>1</span>"
        "<p>RabbitMQ delivers messages round-robin.</p></aside>"
        "<aside class='topic'><ul><li><a href='a.html'>Workers guide</a></li>"
        "<li><a href='b.html'>Periodic tasks</a></li></ul></aside>"
        "<table><tr><td><dl><dt><code>crontab(minute='*',</code></dt><dd><p><code>hour='*')</code></p></dd>"
        "</dl></td><td>Every minute</td></tr></table></div></body></html>"
    ).encode()
    markdown = convert_bytes(page, "http://127.0.0.1/workers.html").markdown
    text = visible_text(markdown).text
    assert "(--soft-time-limit)" in text and "10-20, Paris-Rome" in text
    assert "The soft time limit allows the task to catch an exception to clean up." in text
    assert "RabbitMQ delivers messages round-robin." in text
    assert "Workers guide" not in text  # an aside of links is navigation
    assert "crontab(minute='*'," in text and "hour='*')" in text


def test_an_em_dash_between_words_stays_one() -> None:
    """GNU make's manual (Texinfo) sets em dashes between words without spaces: Docling writes every dash
    as a hyphen, and "cannot be used&mdash;or at least" read as a hyphenated word, "used-or"."""
    page = (
        "<html><head><title>Errors</title></head><body><h1>Errors in Recipes</h1>"
        "<p>The file is corrupted and cannot be used&mdash;or at least it is not completely updated. "
        "Pages 10–20; a plain-text hyphen. <code>a—b</code></p></body></html>"
    ).encode()
    text = visible_text(convert_bytes(page, "http://127.0.0.1/errors.html").markdown).text
    assert "cannot be used—or at least" in text
    assert "Pages 10-20; a plain-text hyphen. a—b" in text


def test_a_backslash_of_the_text_is_no_escape() -> None:
    """GNU Awk's manual: Docling escapes "_" only and writes "'\\'" bare, which Markdown reads as an escaped
    quote mark: "to use a '\\' as the field separator" had read "to use a '' as the field separator"."""
    page = (
        b"<html><head><title>Separators</title></head><body><h1>Command-Line Field Separator</h1>"
        b"<p>For example, to use a &lsquo;<samp>\\</samp>&rsquo; as the field separator, type "
        b"<code>awk -F\\\\ prog</code> on a path such as C:\\dir\\[x] or my\\_name.</p>"
        b"<pre class='example'># same as FS = \"\\\\\"\nawk -F\\\\\\\\ '...' files\n</pre>"
        b"</body></html>"
    )
    text = visible_text(convert_bytes(page, "http://127.0.0.1/sep.html").markdown).text
    assert "to use a \u2018\\\u2019 as the field separator" in text or "to use a '\\' as the field" in text
    assert "awk -F\\\\ prog" in text
    assert "C:\\dir\\[x] or my\\_name." in text
    assert 'same as FS = "\\\\"' in text and "awk -F\\\\\\\\ '...' files" in text


def test_a_signature_reads_as_one_name_without_its_source_link() -> None:
    """Sphinx sets a signature's prefix and name in two spans and links "[source]" after it: Docling read
    "Task. retry_backoff_max" and "install_default_entries(data)[source]"."""
    page = (
        "<html><head><title>Tasks</title></head><body><div class='body'><h1>Tasks</h1>"
        "<dl class='py attribute'>"
        "<dt class='sig sig-object py' id='Task.retry_backoff_max'><span class='sig-prename descclassname'>"
        "<span class='pre'>Task.</span></span><span class='sig-name descname'><span class='pre'>"
        "retry_backoff_max</span></span><a class='reference internal' href='_modules/x.html'>"
        "<span class='viewcode-link'><span class='pre'>[source]</span></span></a>"
        "<a class='headerlink' href='#Task.retry_backoff_max'>\u00b6</a></dt>"
        "<dd><p>A number. By default, this option is set to <code>600</code>.</p></dd></dl>"
        "<p>Use <code>a</code> and <em>b</em> here.</p></div></body></html>"
    ).encode()
    text = visible_text(convert_bytes(page, "http://127.0.0.1/tasks.html").markdown).text
    assert "Task.retry_backoff_max" in text and "[source]" not in text
    assert "Use a and b here." in text


def test_a_control_character_in_a_page_costs_it_nothing() -> None:
    """SQLAlchemy's manual shows ``'X\\x01Y'`` in a code sample with the byte itself: the page had failed to
    convert ("All strings must be XML compatible") when its inline code was joined, and four pages were
    lost. The character shows nothing; the page converts without it, declared encoding or not."""
    body = (
        "<div class='body'><h1>Types</h1><p>Pass <code>'X\x01Y'</code><span>.</span> to <code>bind</code>"
        "<code>param</code> and the value is sent as it is.</p></div></body></html>"
    )
    undeclared = ("<html><head><title>Types</title></head><body>" + body).encode()
    declared = ('<html><head><meta charset="utf-8"><title>Types</title></head><body>' + body).encode()
    for page in (undeclared, declared):
        text = visible_text(convert_bytes(page, "http://127.0.0.1/types.html").markdown).text
        assert "'XY'" in text and "sent as it is" in text and "\x01" not in text
    # ... written as a reference too; a form feed is white space; an encoding built on escape bytes is read.
    escaped = clean_html(b"<html><body><div class='body'><h1>T</h1><p>a&#1;b c\x0cd</p></div></body></html>")
    assert "<p>ab c d</p>" in escaped.html
    japanese = "<html><head><meta charset='iso-2022-jp'></head><body><p>日本語のテキスト。</p></body></html>"
    assert "日本語のテキスト。" in clean_html(japanese.encode("iso-2022-jp")).html


def test_a_list_whose_items_hold_code_reads_as_steps_with_their_code() -> None:
    """Docling reads a list item as one line: SQLAlchemy's numbered fork-safety steps lost their code's lines,
    and a comment swallowed the code after it. Each item is a paragraph opened by its number, its code a
    block; a list without code stays a list."""
    page = (
        b"<html><head><title>Pooling</title></head><body><div class='body'><h1>Pooling</h1>"
        b"<ol start='2'><li><p>Dispose of the pool in the child.</p></li>"
        b"<li><p>Call <code>Engine.dispose()</code> <strong>directly before</strong> the child starts:</p>"
        b"<div class='highlight'><pre>engine = create_engine(url)\n\n# before it starts, dispose\n"
        b"engine.dispose()\np.start()\n</pre></div><p>The parent keeps its connections.</p></li></ol>"
        b"<ul><li>A plain item</li><li>Another one</li></ul></div></body></html>"
    )
    markdown = convert_bytes(page, "http://127.0.0.1/pooling.html").markdown
    assert "# before it starts, dispose\nengine.dispose()\np.start()" in markdown
    text = visible_text(markdown).text
    assert "2. Dispose of the pool" in markdown and "3. Call" in markdown
    assert "The parent keeps its connections." in text
    assert "- A plain item\n- Another one" in markdown
    # Numbers as a reader sees them; white space between inline elements kept; a list that holds more than
    # items (text, a paragraph between them) stays as it is, nothing of it lost.
    cleaned = clean_html(
        b"<html><body><div class='body'><h1>T</h1>"
        b"<ol reversed><li><code>a</code> <em>b</em>:<pre>x</pre></li><li value='7'>c</li><li>d</li></ol>"
        b"<ul>loose text<li>e:<pre>y</pre></li><p>a note</p></ul></div></body></html>",
        10**6,
    ).html
    assert "<p>3. <code>a</code> b:</p><pre>x</pre><p>7. c</p><p>6. d</p>" in cleaned
    assert "<ul>loose text<li>e:<pre>y</pre></li><p>a note</p></ul>" in cleaned
    # A bulleted item is a list item of its own over its code (a paragraph's "- " would be written as a
    # bullet character that then opens the quote).
    bullets = b"<ul><li><p>Set the size:</p><pre>pool_size=5</pre></li><li>Or leave it.</li></ul>"
    markdown = convert_bytes(
        b"<html><body><div class='body'><h1>T</h1>" + bullets + b"</div></body></html>",
        "http://127.0.0.1/bullets.html",
    ).markdown
    assert "- Set the size:\n\n```\npool_size=5\n```\n\n- Or leave it." in markdown


def test_a_menu_hidden_until_clicked_is_no_text_of_the_page() -> None:
    """HAProxy's manual links a keyword inside its prose with a Bootstrap dropdown: the reader sees "bind";
    the menu under it ("This keyword is available in sections : Log forwarding, Peers, ...") opens only on a
    click. Read as text, it ran into every sentence that named a keyword: "for "timeout connectThis keyword
    is available in sections :RingsAlphabetically sorted keywords reference" to expire"."""
    page = (
        b'<html><head><title>HAProxy</title></head><body><div id="content"><h1>HAProxy</h1>'
        b'<pre class="text">Spreads the incoming traffic to all threads a &quot;<span class="dropdown">'
        b'<a class="dropdown-toggle" data-toggle="dropdown" href="#">bind<span class="caret"></span></a>'
        b'<ul class="dropdown-menu"><li class="dropdown-header">This keyword is available in sections :</li>'
        b'<li><a href="#bind%20%28Peers%29">Peers</a></li></ul></span>&quot; line is allowed to run on.\n'
        b"This option is enabled by default.\n</pre></div></body></html>"
    )
    markdown = convert_bytes(page, "http://127.0.0.1/configuration.html").markdown
    assert 'a "bind" line is allowed to run on.' in " ".join(visible_text(markdown).text.split())
    assert "available in sections" not in markdown and "Peers" not in markdown
