"""Stands in for vcrpy, which the machine's package index lacks, in the langsmith SDK's conftest.

The SDK's test suites use vcrpy only to replay recorded calls to OpenAI, Anthropic and Gemini, from
cassettes `npm run test:sdk` does not check out. Here a cassette records and replays nothing: the
calls go out as they are, and tests that need a model provider fail for that reason.
"""

import contextlib


class VCR:
    def __init__(self, **options):
        self.options = options
        self.match_on = ()

    def register_matcher(self, name, matcher):
        pass

    def use_cassette(self, path, **options):
        return contextlib.nullcontext()
