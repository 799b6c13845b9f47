"""Words an analyst asks with, and the words financial filings print instead.

A question says "capital expenditure" and "the cash flow statement"; the statement says
"Purchases of property, plant and equipment" under "Consolidated Statements of Cash Flows".
BM25 cannot see that they are the same thing, so the lexical view expands a question that
names one of these phrases with the others of its group (:mod:`.expansion`).

Each group is a set of ways to say one thing in US GAAP and IFRS reporting (statement titles,
line items, the usual ratios with the line items they are computed from). They come from the
vocabulary of financial reporting, not from any benchmark's questions: a company or filing
the project has never seen prints the same titles. A phrase is lower-case words; ``&`` stays inside a
word ("p&l"), other punctuation is a space.
"""

from __future__ import annotations

__all__ = ["FINANCE_GROUPS"]

#: (phrases a question may use, phrases added when it uses one). The first tuple's phrases
#: are also added for each other (they are synonyms); the second holds what filings print
#: for a ratio or concept that is computed rather than printed.
FINANCE_GROUPS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    # The primary statements, by their common and formal names.
    (
        (
            "cash flow statement",
            "cash flows statement",
            "statement of cash flows",
            "statements of cash flows",
            "cash flow statements",
        ),
        ("consolidated statements of cash flows",),
    ),
    (
        (
            "balance sheet",
            "balance sheets",
            "statement of financial position",
            "statements of financial position",
            "statement of financial condition",
        ),
        ("consolidated balance sheets",),
    ),
    (
        (
            "income statement",
            "income statements",
            "statement of income",
            "statements of income",
            "statement of operations",
            "statements of operations",
            "statement of earnings",
            "statements of earnings",
            "p&l statement",
            "p&l",
            "profit and loss",
            "statement of profit or loss",
        ),
        ("consolidated statements of operations", "consolidated statements of income"),
    ),
    (
        (
            "statement of shareholders equity",
            "statement of stockholders equity",
            "statement of changes in equity",
        ),
        ("consolidated statements of shareholders equity",),
    ),
    # Line items.
    (
        ("capital expenditure", "capital expenditures", "capex", "capital spending"),
        (
            "purchases of property plant and equipment",
            "additions to property and equipment",
            "payments for property and equipment",
        ),
    ),
    (
        (
            "pp&e",
            "ppne",
            "ppe",
            "property plant and equipment",
            "property and equipment",
            "fixed assets",
            "fixed asset",
        ),
        ("property plant and equipment net",),
    ),
    (
        (
            "cogs",
            "cost of goods sold",
            "cost of sales",
            "cost of revenue",
            "cost of revenues",
            "cost of products sold",
        ),
        (),
    ),
    (("revenue", "revenues", "top line", "net sales", "net revenues"), ("total net sales",)),
    (("net income", "net earnings", "net profit", "bottom line"), ()),
    (
        (
            "operating income",
            "operating profit",
            "income from operations",
            "operating earnings",
            "operating margin",
            "operating margins",
        ),
        (),
    ),
    (("gross margin", "gross margins", "gross profit"), ()),
    (
        ("d&a", "depreciation and amortization", "depreciation depletion and amortization"),
        (),
    ),
    (("ebitda",), ("operating income", "depreciation and amortization")),
    (("sg&a", "selling general and administrative"), ()),
    (("r&d", "research and development"), ()),
    (("eps", "earnings per share"), ()),
    (
        (
            "cash from operations",
            "operating cash flow",
            "cash flow from operations",
            "cash flows from operations",
        ),
        ("net cash provided by operating activities",),
    ),
    (
        ("free cash flow", "fcf"),
        ("net cash provided by operating activities", "purchases of property and equipment"),
    ),
    (("cash and cash equivalents", "cash equivalents"), ()),
    (("inventory", "inventories"), ()),
    (("accounts payable", "trade payables"), ()),
    (("accounts receivable", "trade receivables"), ()),
    (
        ("debt", "borrowings", "indebtedness"),
        ("long term debt", "short term borrowings", "current portion of long term debt"),
    ),
    (
        ("effective tax rate", "tax rate"),
        ("effective income tax rate", "provision for income taxes"),
    ),
    (("dividends", "dividend"), ("cash dividends paid", "dividends declared per share")),
    # Ratios: what they are computed from.
    (("dpo", "days payable outstanding"), ("accounts payable", "cost of sales")),
    (("dso", "days sales outstanding"), ("accounts receivable", "net sales")),
    (("dio", "days inventory outstanding", "inventory turnover"), ("inventories", "cost of sales")),
    (("cash conversion cycle",), ("inventories", "accounts receivable", "accounts payable")),
    (
        ("working capital", "current ratio", "quick ratio", "liquidity ratio"),
        ("total current assets", "total current liabilities"),
    ),
    (("roa", "return on assets"), ("net income", "total assets")),
    (("roe", "return on equity"), ("net income", "total shareholders equity")),
    (("asset turnover",), ("total assets", "net sales")),
    (("fixed asset turnover",), ("property plant and equipment net", "net sales")),
    (("retention ratio", "payout ratio"), ("cash dividends paid", "net income")),
    (("profit margin", "net margin"), ("net income", "net sales")),
    (
        ("capital intensive", "capital intensity"),
        ("capital expenditures", "property plant and equipment"),
    ),
    # Topics a filing has a section for.
    (
        ("m&a", "mergers and acquisitions", "acquisitions", "acquired", "acquisition"),
        ("business combinations", "acquisitions and divestitures"),
    ),
    (
        ("spin off", "spinoff", "spin-off", "separation", "split off"),
        ("separation", "discontinued operations", "distribution"),
    ),
    (
        ("legal battles", "lawsuits", "litigation", "legal proceedings"),
        ("legal proceedings", "commitments and contingencies"),
    ),
    (
        ("segment", "segments", "business segment", "business segments"),
        ("segment information", "reportable segments"),
    ),
    (
        ("geographies", "geographic region", "geographic regions", "regions", "geography"),
        ("geographic information", "geographic areas"),
    ),
    (
        ("retirees", "pension", "pensions", "postretirement"),
        ("pension and other postretirement benefits", "expected benefit payments"),
    ),
    (
        ("derivative instruments", "derivatives", "hedges", "hedging"),
        ("derivative instruments and hedging activities", "notional amount"),
    ),
    (("10 k", "annual report"), ()),
    (("10 q", "quarterly report"), ()),
)
