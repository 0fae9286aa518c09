//! What the apiserver answers: a `Status` (code and `Reason`) with
//! upstream's own messages, the `Response` a client acts on, and how an
//! injected failure goes (`FailMode`).

use crate::sim::object::{Kind, ObjectRc};
use serde::Serialize;

/// The `metav1.StatusReason` of a failed request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
pub enum Reason {
    AlreadyExists,
    NotFound,
    /// 409: the object moved on since the client read it (a stale
    /// resourceVersion), or is not the one a UID precondition names.
    Conflict,
    /// 500: a failure on the server, nothing written.
    InternalError,
    /// 504: no answer in time; the write may or may not have happened.
    Timeout,
}

/// Why a request failed, where upstream's message says more than its
/// status: the facts the message is built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// A UID precondition failed: the UID asked for, the object's.
    /// `(*Preconditions).Check` (k8s.io/apiserver v0.36.3
    /// pkg/storage/interfaces.go) checks the UID before the resourceVersion.
    UidPrecondition { asked: u64, found: u64 },
    /// A delete's resourceVersion precondition failed (an update's is the
    /// optimistic lock, in `NewConflict`'s plain words).
    ResourceVersionPrecondition { asked: u64, found: u64 },
    /// AlreadyExists, said of an object being deleted (`(*Store).create`
    /// in pkg/registry/generic/registry/store.go prefixes the message), or
    /// of a name `generateName` made (`rest.CheckGeneratedNameError` turns
    /// it into `NewGenerateNameConflict`).
    AlreadyExists { being_deleted: bool, generated: bool },
}

/// How an injected request failure goes (the `fail_next` action).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, Hash)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub enum FailMode {
    /// `500 InternalError`: nothing is written.
    #[serde(rename = "500")]
    InternalError,
    /// `504 Timeout`: nothing is written.
    #[serde(rename = "timeout")]
    Timeout,
    /// `504 Timeout`, but the write *was* committed: the ambiguous failure.
    #[serde(rename = "timeout_committed")]
    TimeoutCommitted,
    /// `409 Conflict`, the optimistic-lock error (`NewConflict`), as if
    /// another writer had changed the object first: nothing is written.
    #[serde(rename = "409")]
    Conflict,
}

impl FailMode {
    /// As a scenario writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            FailMode::InternalError => "500",
            FailMode::Timeout => "timeout",
            FailMode::TimeoutCommitted => "timeout_committed",
            FailMode::Conflict => "409",
        }
    }
}

/// An HTTP status with its reason: what `apierrors.IsAlreadyExists` and friends test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
pub struct Status {
    pub code: u16,
    pub reason: Option<Reason>,
}

impl Status {
    pub const OK: Status = Status { code: 200, reason: None };
    pub const CREATED: Status = Status { code: 201, reason: None };
    pub const NOT_FOUND: Status = Status { code: 404, reason: Some(Reason::NotFound) };
    pub const ALREADY_EXISTS: Status = Status { code: 409, reason: Some(Reason::AlreadyExists) };
    pub const CONFLICT: Status = Status { code: 409, reason: Some(Reason::Conflict) };
    pub const INTERNAL_ERROR: Status = Status { code: 500, reason: Some(Reason::InternalError) };
    pub const TIMEOUT: Status = Status { code: 504, reason: Some(Reason::Timeout) };

    pub fn is_success(self) -> bool {
        self.code < 300
    }

    /// `201 Created`, `409 AlreadyExists`: as the Timeline panel shows a status.
    pub fn label(self) -> &'static str {
        match (self.code, self.reason) {
            (200, _) => "200 OK",
            (201, _) => "201 Created",
            (404, _) => "404 NotFound",
            (409, Some(Reason::Conflict)) => "409 Conflict",
            (409, _) => "409 AlreadyExists",
            (500, _) => "500 InternalError",
            (504, _) => "504 Timeout",
            _ => "error",
        }
    }
}

/// The apiserver's answer.
#[derive(Debug, Clone, Hash)]
pub struct Response {
    pub status: Status,
    /// The object created, read, updated or deleted.
    pub object: Option<ObjectRc>,
    /// A list's items, in key order.
    pub items: Vec<ObjectRc>,
    /// A list's collection resourceVersion: a watch from here misses nothing.
    pub list_rv: u64,
}

/// The message the apiserver returns with `status` for a request on `kind`
/// `name` (with the facts of its `cause`, if it has one): upstream's words
/// verbatim, data the real API returns, not the simulation's prose.
pub fn status_message(status: Status, kind: Kind, name: &str, cause: Option<Cause>) -> String {
    let resource = kind.resource();
    match (status.reason, cause) {
        // `storage.NewInvalidObjError` from `(*Preconditions).Check`, as `NewConflict` wraps it.
        (Some(Reason::Conflict), Some(Cause::UidPrecondition { asked, found })) => format!(
            "Operation cannot be fulfilled on {resource} \"{name}\": Precondition failed: UID in precondition: {asked}, UID in object meta: {found}"
        ),
        (Some(Reason::Conflict), Some(Cause::ResourceVersionPrecondition { asked, found })) => format!(
            "Operation cannot be fulfilled on {resource} \"{name}\": Precondition failed: ResourceVersion in precondition: {asked}, ResourceVersion in object meta: {found}"
        ),
        (Some(Reason::AlreadyExists), Some(Cause::AlreadyExists { being_deleted, generated })) => {
            // apimachinery's `NewGenerateNameConflict`, then the store's prefix.
            let unique = if generated { ", the server was not able to generate a unique name for the object" } else { "" };
            let deleting = if being_deleted { "object is being deleted: " } else { "" };
            format!("{deleting}{resource} \"{name}\" already exists{unique}")
        }
        _ => message(status, kind, name),
    }
}

/// A status's message, in apimachinery's words (`errors.go`: `NewAlreadyExists`,
/// `NewNotFound`, `NewInternalError`, `NewTimeoutError`).
fn message(status: Status, kind: Kind, name: &str) -> String {
    let resource = kind.resource();
    match status.reason {
        Some(Reason::AlreadyExists) => format!("{resource} \"{name}\" already exists"),
        Some(Reason::NotFound) => format!("{resource} \"{name}\" not found"),
        // `OptimisticLockErrorMsg` in `NewConflict`'s words.
        Some(Reason::Conflict) => format!(
            "Operation cannot be fulfilled on {resource} \"{name}\": the object has been modified; please apply your changes to the latest version and try again"
        ),
        Some(Reason::InternalError) => "Internal error occurred: an injected fault".to_string(),
        Some(Reason::Timeout) => "Timeout: request did not complete within requested timeout - context deadline exceeded".to_string(),
        None => String::new(),
    }
}
