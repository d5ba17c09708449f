from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"

    def ready(self) -> None:
        # Every event a committed transaction queues (live.events) leaves through the loops' runtime.
        from live import events, runtime

        events.deliver_with(runtime.deliver)
