"""Schemathesis hooks of the conformance run (make openapi-conformance).

The reference server merges query-string and body parameters, and where both
give one name the body's value wins and the other is never looked at.
OpenAPI 3.1 cannot describe that rule (each location is validated on its
own), so no generated request gives a name in both places; the rule itself is
tested in server/tests/params.rs.
"""

import schemathesis


@schemathesis.hook
def filter_case(context, case):
    query, body = case.query, case.body
    if not isinstance(query, dict) or not isinstance(body, dict):
        return True
    return not (query.keys() & body.keys())
