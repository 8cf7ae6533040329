//! # The ports and the shell of a 1-lane stream core, written once
//!
//! Every 1-lane core of the family has the same eleven ports, in the same
//! order (the order of the exported module's port list):
//!
//! | port | dir | width |
//! |---|---|---|
//! | `clk`, `rst` | in | 1 |
//! | `s_axis_tdata` | in | the core's input item |
//! | `s_axis_tvalid`, `s_axis_tready`, `s_axis_tlast` | in, out, in | 1 |
//! | `m_axis_tdata` | out | the core's output item |
//! | `m_axis_tuser` | out | the core's flags |
//! | `m_axis_tvalid`, `m_axis_tready`, `m_axis_tlast` | out, in, out | 1 |
//!
//! [`axis_core!`] declares a core's block with those ports and then its
//! own fields; [`with_axis_ports!`] writes its struct literal. A core of
//! N lanes (the wide decoder, the validator) has two ports more,
//! `s_axis_tkeep` and `m_axis_tkeep` of N bits, after `s_axis_tdata` and
//! after `m_axis_tuser`; its block is generic in its widths, and
//! `axis_core!` and `with_axis_ports!` declare it in their `lanes` form. The encoders, the UTF-16 cores and the properties core put
//! their logic between a [`SkidBuffer`](crate::stream::SkidBuffer) and an
//! [`AxisOutputRegister`](crate::stream::AxisOutputRegister), wired to the
//! ports in the same way; [`axis_shell_logic!`] writes that wiring around
//! the core's own `update`.
//!
//! These are macros, not a block, because a rust-hdl block's ports are the
//! fields of its own struct and its `#[hdl_gen]` body takes no function
//! calls: a shared block would still need its eleven port assignments in
//! every core, and would add a level to the exported hierarchy.

/// Declares a 1-lane stream core's block: the eleven AXI4-Stream ports
/// (above), `s_axis_tdata` of `$input` bits, `m_axis_tdata` of `$output`
/// bits and `m_axis_tuser` of `$tuser` bits, then the core's own fields.
/// A block whose sideband is `m_axis_tkeep` (a beat of bytes) names it in
/// place of `m_axis_tuser`.
#[macro_export]
macro_rules! axis_core {
    (
        $(#[$meta:meta])*
        pub struct $name:ident<s_axis_tdata: $input:literal, m_axis_tdata: $output:literal, $sideband:ident: $tuser:literal> {
            $($(#[$field_meta:meta])* $field_vis:vis $field:ident: $field_type:ty,)*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            pub clk: Signal<In, Clock>,
            pub rst: Signal<In, Bit>,
            pub s_axis_tdata: Signal<In, Bits<$input>>,
            pub s_axis_tvalid: Signal<In, Bit>,
            pub s_axis_tready: Signal<Out, Bit>,
            pub s_axis_tlast: Signal<In, Bit>,
            pub m_axis_tdata: Signal<Out, Bits<$output>>,
            pub $sideband: Signal<Out, Bits<$tuser>>,
            pub m_axis_tvalid: Signal<Out, Bit>,
            pub m_axis_tready: Signal<In, Bit>,
            pub m_axis_tlast: Signal<Out, Bit>,
            $($(#[$field_meta])* $field_vis $field: $field_type,)*
        }
    };
    // A core of N lanes: its widths are const parameters of the block, and
    // `s_axis_tkeep`, `m_axis_tkeep` are N bits.
    (
        $(#[$meta:meta])*
        pub struct $name:ident<$(const $param:ident: usize),* $(,)?>
            [lanes: $lanes:ident, s_axis_tdata: $input:ident, m_axis_tdata: $output:ident, m_axis_tuser: $tuser:ident]
        {
            $($(#[$field_meta:meta])* $field_vis:vis $field:ident: $field_type:ty,)*
        }
    ) => {
        $(#[$meta])*
        pub struct $name<$(const $param: usize),*> {
            pub clk: Signal<In, Clock>,
            pub rst: Signal<In, Bit>,
            pub s_axis_tdata: Signal<In, Bits<$input>>,
            pub s_axis_tkeep: Signal<In, Bits<$lanes>>,
            pub s_axis_tvalid: Signal<In, Bit>,
            pub s_axis_tready: Signal<Out, Bit>,
            pub s_axis_tlast: Signal<In, Bit>,
            pub m_axis_tdata: Signal<Out, Bits<$output>>,
            pub m_axis_tuser: Signal<Out, Bits<$tuser>>,
            pub m_axis_tkeep: Signal<Out, Bits<$lanes>>,
            pub m_axis_tvalid: Signal<Out, Bit>,
            pub m_axis_tready: Signal<In, Bit>,
            pub m_axis_tlast: Signal<Out, Bit>,
            $($(#[$field_meta])* $field_vis $field: $field_type,)*
        }
    };
}

/// A struct literal of an [`axis_core!`] block: its eleven ports at their
/// defaults, then the core's own fields as given. A block whose sideband is
/// not `m_axis_tuser` names it: `with_axis_ports!(Name[m_axis_tkeep] { .. })`;
/// a core of N lanes is `with_axis_ports!(lanes Name { .. })`.
#[macro_export]
macro_rules! with_axis_ports {
    (lanes $name:ident { $($field:ident: $value:expr),* $(,)? }) => {
        $crate::with_axis_ports!($name[m_axis_tuser] {
            s_axis_tkeep: Default::default(),
            m_axis_tkeep: Default::default(),
            $($field: $value),*
        })
    };
    ($name:ident { $($field:ident: $value:expr),* $(,)? }) => {
        $crate::with_axis_ports!($name[m_axis_tuser] { $($field: $value),* })
    };
    ($name:ident[$sideband:ident] { $($field:ident: $value:expr),* $(,)? }) => {
        $name {
            clk: Default::default(),
            rst: Default::default(),
            s_axis_tdata: Default::default(),
            s_axis_tvalid: Default::default(),
            s_axis_tready: Default::default(),
            s_axis_tlast: Default::default(),
            m_axis_tdata: Default::default(),
            $sideband: Default::default(),
            m_axis_tvalid: Default::default(),
            m_axis_tready: Default::default(),
            m_axis_tlast: Default::default(),
            $($field: $value),*
        }
    };
}
/// Writes a shell core's `update`: the `dff_setup!` of the core's own
/// `flops`, if it has any, then the clock and reset of `skid_buffer` and
/// of its `output` block (an [`AxisOutputRegister`](crate::stream::AxisOutputRegister),
/// or the encoders' [`PendingUnits`](crate::stream::PendingUnits)), the
/// ports wired through them, and the core's own statements. The core
/// drives `skid_buffer.advance` and the output block's inputs, and reads
/// `skid_buffer.byte`.
macro_rules! axis_shell_logic {
    (
        impl Logic for $name:ident {
            output: $output:ident,
            flops: [$($flop:ident),* $(,)?],
            $pound:tt $hdl_gen:tt
            fn update(&mut $this:ident) $body:tt
        }
    ) => {
        $crate::stream::axis_shell_logic! {
            @shell $name $output ($pound $hdl_gen) $this (dff_setup!($this, clk, $($flop),*);) $body
        }
    };
    (
        impl Logic for $name:ident {
            output: $output:ident,
            $pound:tt $hdl_gen:tt
            fn update(&mut $this:ident) $body:tt
        }
    ) => {
        $crate::stream::axis_shell_logic! { @shell $name $output ($pound $hdl_gen) $this () $body }
    };
    // The `#[hdl_gen]` attribute and `self` are the caller's own tokens, so
    // the functions the attribute writes and the caller's statements agree
    // on which `self` they mean.
    (@shell $name:ident $output:ident ($pound:tt $hdl_gen:tt) $this:ident ($($setup:tt)*) { $($body:tt)* }) => {
        impl Logic for $name {
            $pound $hdl_gen
            fn update(&mut $this) {
                $($setup)*
                clock!($this, clk, skid_buffer, $output);
                $this.skid_buffer.rst.next = $this.rst.val();
                $this.$output.rst.next = $this.rst.val();
                $this.skid_buffer.s_axis_tdata.next = $this.s_axis_tdata.val();
                $this.skid_buffer.s_axis_tvalid.next = $this.s_axis_tvalid.val();
                $this.skid_buffer.s_axis_tlast.next = $this.s_axis_tlast.val();
                $this.s_axis_tready.next = $this.skid_buffer.s_axis_tready.val();
                $this.$output.m_axis_tready.next = $this.m_axis_tready.val();
                $this.m_axis_tdata.next = $this.$output.m_axis_tdata.val();
                $this.m_axis_tuser.next = $this.$output.m_axis_tuser.val();
                $this.m_axis_tvalid.next = $this.$output.m_axis_tvalid.val();
                $this.m_axis_tlast.next = $this.$output.m_axis_tlast.val();
                $($body)*
            }
        }
    };
}
pub(crate) use axis_shell_logic;
