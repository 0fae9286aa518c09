//! What a change said: the caption bar's notice, and the note beside the
//! share bar's buttons. Plain values; the components that show them are
//! `caption` and `share`.

/// What the last change did, said in the caption bar. A plain notice goes
/// by itself; one with an action stays until it is used or dismissed.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Notice {
    pub(super) text: String,
    pub(super) action: Option<NoticeAction>,
}

/// What a notice offers beside its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NoticeAction {
    /// A setting changed at a frame: make that change from frame 0 instead.
    ApplyFromStart(&'static str),
}

impl Notice {
    /// A notice that only says something (and goes by itself).
    pub(super) fn say(text: impl Into<String>) -> Option<Notice> {
        Some(Notice { text: text.into(), action: None })
    }
}

/// What the share bar says beside its buttons.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Note {
    pub(super) text: String,
    /// Text to copy by hand, shown selected in a field: the clipboard was missing or refused.
    pub(super) copy_by_hand: Option<String>,
}

impl Note {
    /// A note that only says something.
    pub(super) fn say(text: impl Into<String>) -> Option<Note> {
        Some(Note { text: text.into(), copy_by_hand: None })
    }
}
