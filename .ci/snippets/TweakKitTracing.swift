import Tracing

let tracer = NoOpTracer()
