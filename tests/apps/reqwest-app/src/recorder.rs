//! A `tracing` layer of the app's own that records every span (its name,
//! target, parent and fields, those recorded later included) and every
//! event, as an app's exporter would see them.

use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::registry::LookupSpan;

/// A span as recorded.
#[derive(Clone, Debug)]
pub struct SpanRecord {
    pub id: u64,
    pub name: String,
    pub target: String,
    pub parent: Option<u64>,
    pub fields: Vec<(String, String)>,
}

impl SpanRecord {
    /// The value recorded for `name`, if any.
    pub fn field(&self, name: &str) -> Option<&str> {
        field(&self.fields, name)
    }
}

/// An event as recorded.
#[derive(Clone, Debug)]
pub struct EventRecord {
    pub level: Level,
    pub target: String,
    pub span: Option<u64>,
    pub fields: Vec<(String, String)>,
}

impl EventRecord {
    /// The value recorded for `name`, if any.
    pub fn field(&self, name: &str) -> Option<&str> {
        field(&self.fields, name)
    }
}

fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .rev()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

/// What has been recorded so far.
#[derive(Clone, Default)]
pub struct Recorder {
    spans: Arc<Mutex<Vec<SpanRecord>>>,
    events: Arc<Mutex<Vec<EventRecord>>>,
}

impl Recorder {
    /// Forgets what was recorded.
    pub fn clear(&self) {
        self.spans.lock().unwrap().clear();
        self.events.lock().unwrap().clear();
    }

    /// The spans and events recorded since the last `clear`.
    pub fn taken(&self) -> (Vec<SpanRecord>, Vec<EventRecord>) {
        (
            self.spans.lock().unwrap().clone(),
            self.events.lock().unwrap().clone(),
        )
    }
}

struct Fields<'a>(&'a mut Vec<(String, String)>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0
            .push((field.name().to_string(), format!("{value:?}")));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.push((field.name().to_string(), value.to_string()));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.push((field.name().to_string(), value.to_string()));
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.push((field.name().to_string(), value.to_string()));
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        self.0.push((field.name().to_string(), value.to_string()));
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Recorder {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let parent = if attrs.is_root() {
            None
        } else if let Some(parent) = attrs.parent() {
            Some(parent.into_u64())
        } else {
            ctx.current_span().id().map(Id::into_u64)
        };
        let mut fields = Vec::new();
        attrs.record(&mut Fields(&mut fields));
        self.spans.lock().unwrap().push(SpanRecord {
            id: id.into_u64(),
            name: attrs.metadata().name().to_string(),
            target: attrs.metadata().target().to_string(),
            parent,
            fields,
        });
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        let mut spans = self.spans.lock().unwrap();
        if let Some(span) = spans.iter_mut().rev().find(|s| s.id == id.into_u64()) {
            values.record(&mut Fields(&mut span.fields));
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        let span = ctx.event_span(event).map(|span| span.id().into_u64());
        let mut fields = Vec::new();
        event.record(&mut Fields(&mut fields));
        self.events.lock().unwrap().push(EventRecord {
            level: *event.metadata().level(),
            target: event.metadata().target().to_string(),
            span,
            fields,
        });
    }
}
