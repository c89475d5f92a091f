//! `statecore view` (docs/viewer.md): the rules of the live viewer, pure. Which files under the
//! watched directory it shows and as what (`file`), and how its server answers a request
//! (`request`), and what its server reads of a file and which streams it keeps (`stream`): the
//! hosts' servers and the page call these, so every surface decides alike.

pub mod file;
pub mod request;
pub mod shapes;
pub mod stream;

pub use file::view_file;
pub use request::{failure, route};
pub use statecore::checked::places::ROLES;
