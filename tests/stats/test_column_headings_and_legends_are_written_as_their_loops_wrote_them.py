"""A statistics table's column headings (the strategy table's) and the legend below it are
written once per list of columns in Python (stats_cells.strategy_headings, column_legend),
not by a template loop each request (issue 25): byte for byte what the loops wrote, hostile
text escaped as the template escaped it."""

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string

from stats.columns import HEX_COLUMNS, STRATEGY_COLUMNS, Column
from stats.templatetags.stats_cells import column_legend, strategy_headings

# The loops as stats/_strategies_body.html and stats/_legend.html had them.
HEADINGS_LOOP = Template(
    '{% for column in columns %}<th scope="col" title="{{ column.definition }}"'
    '{% if column.key == "relative" %} aria-sort="descending"{% endif %}'
    '{% if column.first %} data-sort-first="{{ column.first }}"{% endif %}>'
    "{{ column.label }}</th>{% endfor %}"
)
LEGEND_TEMPLATE = Template(
    '<details class="column-legend">\n'
    "  <summary>What the columns mean</summary>\n"
    "  <dl>{% for column in columns %}<dt>{{ column.label }}</dt>"
    "<dd>{{ column.definition }}.</dd>{% endfor %}</dl>\n"
    "</details>\n"
)
HOSTILE = (
    Column("relative", "<b>Rel</b> & co", 'Said "O\'Brien" <script>x</script>', "ascending"),
    Column("x<y", "Plain", "A & B", '"><img src=x>'),
    Column("relatives", "Soft\N{SOFT HYPHEN}hyphen", ""),
)


@pytest.mark.parametrize("columns", [STRATEGY_COLUMNS, HEX_COLUMNS, HOSTILE, list(HOSTILE)])
def test_the_headings_are_the_loops(columns):
    loop = HEADINGS_LOOP.render(Context({"columns": columns}))
    assert strategy_headings(columns) == loop
    assert strategy_headings(columns) == loop  # and the same again, remembered


@pytest.mark.parametrize("columns", [STRATEGY_COLUMNS, HEX_COLUMNS, HOSTILE])
def test_the_legend_is_the_templates(columns):
    old = LEGEND_TEMPLATE.render(Context({"columns": columns}))
    assert render_to_string("stats/_legend.html", {"columns": columns}) == old
    assert "<script>" not in column_legend(HOSTILE)


def test_the_hostile_columns_reach_every_branch():
    assert any(c.key == "relative" for c in HOSTILE) and any(c.first for c in HOSTILE)
    assert any(not c.first for c in HOSTILE)
