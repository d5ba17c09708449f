"""The live platform: what every live app builds on, knowing none of them (import-linter says so).

The one way database work leaves the event loop (:mod:`live.offload`), each event loop's runtime and the
loop services the apps register in it (:mod:`live.runtime`), the socket base (:mod:`live.socket`) and the
frames every socket shares (:mod:`live.frames`), the events a commit queues and their one delivery
(:mod:`live.events`), each loop's outbox (:mod:`live.outbox`), the channel layer's typed messages
(:mod:`live.messages`, each app declaring its own), the one debounced feed (:mod:`live.debounce`) and a
periodic step's loop (:mod:`live.periodic`).
"""
