"""The two names the SDK's conftest patches in vcrpy's `vcr.patch`; nothing here is ever patched in."""


class ConnectionRemover:
    def __exit__(self, *args):
        pass


class CassettePatcherBuilder:
    pass
