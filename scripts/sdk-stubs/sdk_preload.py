"""A pytest plugin `npm run test:sdk` loads (-p sdk_preload) before the SDK's tests are imported.

It imports pydantic.v1 (through langchain_core) at start-up, with the real `datetime.date`. The SDK's
`test_create_chat_example` imports langchain_core inside its body under its own @freeze_time, which
would otherwise be the first import of pydantic.v1: its `ConstrainedDate(date, ...)` then subclasses
freezegun's FakeDate and fails with a metaclass conflict, client-side, before any call to the server.
"""

try:
    import langchain_core.messages  # noqa: F401
except ImportError:
    pass
