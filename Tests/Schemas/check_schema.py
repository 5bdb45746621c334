"""Validates JSON files against a JSON Schema (draft 2020-12) with Python's jsonschema, for
the Swift tests of the repository's schemas (scene files, the view tree).

    python3 Tests/Schemas/check_schema.py SCHEMA FILE...

Prints one line per file, in order: the number of errors, a tab, the first three messages.
Exits 3 when jsonschema is not installed (.ci/run installs it), 1 when the schema itself is
not a valid schema."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("MISSING jsonschema")
    sys.exit(3)

schema = json.load(open(sys.argv[1], encoding="utf-8"))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
for path in sys.argv[2:]:
    errors = list(validator.iter_errors(json.load(open(path, encoding="utf-8"))))
    print(str(len(errors)) + "\t" + "; ".join(error.message[:200] for error in errors[:3]))
