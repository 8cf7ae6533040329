//! A core's ports, found by rust-hdl's reflection, and the role each one
//! plays by the AXI4-Stream naming convention.

use anyhow::{bail, Result};
use rust_hdl::core::prelude::*;

/// Which way a port points, seen from the core.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dir {
    In,
    Out,
}

impl Dir {
    /// The Verilog keyword.
    pub fn verilog(self) -> &'static str {
        match self {
            Dir::In => "input",
            Dir::Out => "output",
        }
    }
}

/// What a port is for, from the AXI4-Stream naming convention.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// `clk`: the one clock, rising edge.
    Clock,
    /// `rst`: synchronous reset, active high.
    Reset,
    /// `s_axis_*`: the input stream.
    Input,
    /// `m_axis_*`: the output stream.
    Output,
}

/// One port of a core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub dir: Dir,
    pub width: usize,
    pub role: Role,
}

impl Port {
    /// The Verilog range of a vector (`[7:0] `), or nothing for a bit.
    pub fn range(&self) -> String {
        match self.width {
            1 => String::new(),
            w => format!("[{}:0] ", w - 1),
        }
    }
}

/// The ports of `block`, in declaration order, found by rust-hdl's
/// reflection; each one's role comes from its name. A port that follows no
/// convention is an error, so a misnamed port cannot slip past the harnesses.
pub fn ports(block: &dyn Block) -> Result<Vec<Port>> {
    #[derive(Default)]
    struct Collect {
        depth: usize,
        ports: Vec<(String, Dir, usize)>,
    }
    impl Probe for Collect {
        fn visit_start_scope(&mut self, _name: &str, _node: &dyn Block) {
            self.depth += 1;
        }
        fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
            self.depth -= 1;
        }
        fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
            let dir = match signal.kind() {
                AtomKind::InputParameter => Dir::In,
                AtomKind::OutputParameter => Dir::Out,
                _ => return,
            };
            if self.depth == 1 {
                self.ports.push((name.to_string(), dir, signal.bits()));
            }
        }
    }
    let mut collect = Collect::default();
    block.accept("top", &mut collect);
    collect
        .ports
        .into_iter()
        .map(|(name, dir, width)| {
            let role = match (name.as_str(), dir) {
                ("clk", Dir::In) => Role::Clock,
                ("rst", Dir::In) => Role::Reset,
                (n, _) if n.starts_with("s_axis_") => Role::Input,
                (n, _) if n.starts_with("m_axis_") => Role::Output,
                _ => bail!(
                    "port '{name}' is not clk, rst, s_axis_* or m_axis_*: \
                     every port of a core belongs to one of its AXI4-Stream interfaces"
                ),
            };
            Ok(Port {
                name,
                dir,
                width,
                role,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Core, Lanes};
    use crate::cores::utf8_decoder::{Decoder, Word};
    use utf8hdl_hdl::Profile;

    #[test]
    fn lanes_come_from_the_ports() {
        let decoder = ports(&Decoder(Profile::Rfc3629).block()).unwrap();
        assert_eq!(
            Lanes::of::<u8, Word>(&decoder).unwrap(),
            Lanes {
                count: 1,
                tkeep: false
            }
        );
        let port = |name: &str, dir, width| Port {
            name: name.into(),
            dir,
            width,
            role: if name.starts_with("s_") {
                Role::Input
            } else {
                Role::Output
            },
        };
        let wide = |keep: Option<usize>, tuser| {
            let mut ports = vec![
                port("s_axis_tdata", Dir::In, 32),
                port("m_axis_tdata", Dir::Out, 128),
                port("m_axis_tuser", Dir::Out, tuser),
            ];
            ports.extend(keep.map(|w| port("s_axis_tkeep", Dir::In, w)));
            ports.extend(keep.map(|_| port("m_axis_tkeep", Dir::Out, 4)));
            Lanes::of::<u8, Word>(&ports)
        };
        assert_eq!(
            wide(Some(4), 16).unwrap(),
            Lanes {
                count: 4,
                tkeep: true
            }
        );
        assert!(wide(None, 16)
            .unwrap_err()
            .to_string()
            .contains("needs s_axis_tkeep"));
        assert!(wide(Some(4), 4).is_err(), "tuser is 4 bits a lane");
        assert!(wide(Some(3), 16).is_err(), "tkeep is a bit a lane");
    }
}
