//! The simulation core: a discrete-event model of the apiserver, watch streams,
//! informer caches, workqueues, ControllerExpectations, the garbage collector
//! and three controllers, in integer milliseconds with one seeded RNG.
//!
//! Invariant: nothing here imports a web crate or reads a clock; the same
//! scenario and seed give the same frames on every platform.

pub mod apiserver;
pub mod consistency;
pub mod controller_runtime;
pub mod controllers;
pub mod expectations;
pub mod frame;
pub mod hash;
pub mod history;
pub mod informer;
pub mod invariants;
pub mod kubelet;
pub mod name;
pub mod object;
pub mod recipe;
pub mod reconcile;
pub mod reflector;
pub mod rng;
pub mod settings;
pub mod shelves;
pub mod sorted;
pub mod spec;
pub mod workqueue;
pub mod world;
