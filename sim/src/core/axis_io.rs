//! The [`Core`](super::Core) methods that drive and sample a block's
//! AXI4-Stream ports, written once for every core.

/// The [`Core`] methods `clock`, `drive` and `sample` of a block with the
/// AXI4-Stream ports `clk`, `rst`, `s_axis_tdata`, `s_axis_tvalid`,
/// `s_axis_tready`, `s_axis_tlast`, `m_axis_tdata`, `m_axis_tvalid`,
/// `m_axis_tready` and `m_axis_tlast`, with each of the optional ports its
/// block has named after the block's type: `s_tuser` (`s_axis_tuser`),
/// `m_tuser` (`m_axis_tuser`) and `tkeep` (`s_axis_tkeep` and
/// `m_axis_tkeep`). The lanes' widths are the core's [`Core::Input`] and
/// [`Core::Output`]: `axis_io!(Utf8Decoder; m_tuser)`,
/// `axis_io!(Utf8DecoderX4; m_tuser tkeep)`.
#[macro_export]
macro_rules! axis_io {
    ($block:ty $(; $($port:ident)*)?) => {
        fn clock(
            uut: &mut $block,
        ) -> &mut rust_hdl::core::prelude::Signal<
            rust_hdl::core::prelude::In,
            rust_hdl::core::prelude::Clock,
        > {
            &mut uut.clk
        }

        fn drive(uut: &mut $block, inputs: &$crate::core::Inputs<Self::Input>) {
            uut.rst.next = inputs.rst;
            uut.s_axis_tvalid.next = inputs.s_axis.is_some();
            // An input holds its last value while no beat is offered, as a
            // real source's data lines do.
            if let Some(beat) = &inputs.s_axis {
                let count = rust_hdl::core::prelude::Atom::bits(&uut.s_axis_tdata)
                    / <Self::Input as $crate::core::Lane>::TDATA;
                uut.s_axis_tdata.next = $crate::core::bits_from_words(&beat.tdata_words(count));
                $($($crate::axis_io!(@drive $port uut beat count);)*)?
                uut.s_axis_tlast.next = beat.tlast;
            }
            uut.m_axis_tready.next = inputs.m_axis_tready;
        }

        fn sample(uut: &$block) -> $crate::core::Outputs<Self::Output> {
            let count = rust_hdl::core::prelude::Atom::bits(&uut.m_axis_tdata)
                / <Self::Output as $crate::core::Lane>::TDATA;
            let tuser = $crate::axis_io!(@tuser uut $($($port)*)?);
            let tkeep = $crate::axis_io!(@tkeep uut $($($port)*)?);
            $crate::core::Outputs {
                s_axis_tready: uut.s_axis_tready.val(),
                m_axis: uut.m_axis_tvalid.val().then(|| {
                    $crate::core::Beat::from_words(
                        count,
                        &$crate::core::port_words(uut.m_axis_tdata.val()),
                        &tuser,
                        tkeep,
                        uut.m_axis_tlast.val(),
                    )
                }),
            }
        }
    };
    (@drive tkeep $uut:ident $beat:ident $count:ident) => {
        $uut.s_axis_tkeep.next = $crate::core::bits_from_words(&[$beat.tkeep]);
    };
    (@drive s_tuser $uut:ident $beat:ident $count:ident) => {
        $uut.s_axis_tuser.next = $crate::core::bits_from_words(&$beat.tuser_words($count));
    };
    (@drive m_tuser $uut:ident $beat:ident $count:ident) => {};
    (@tuser $uut:ident) => {
        [0u32; $crate::core::MAX_LANES]
    };
    (@tuser $uut:ident m_tuser $($rest:ident)*) => {
        $crate::core::port_words($uut.m_axis_tuser.val())
    };
    (@tuser $uut:ident $other:ident $($rest:ident)*) => {
        $crate::axis_io!(@tuser $uut $($rest)*)
    };
    (@tkeep $uut:ident) => {
        None::<u32>
    };
    (@tkeep $uut:ident tkeep $($rest:ident)*) => {
        Some($uut.m_axis_tkeep.val().to_u32())
    };
    (@tkeep $uut:ident $other:ident $($rest:ident)*) => {
        $crate::axis_io!(@tkeep $uut $($rest)*)
    };
}

/// The [`Core`](super::Core) methods `profile`, `model` and `block` of a
/// core that is its profile (`struct C(pub Profile)`), whose model is
/// `Model(profile)` and whose block is `Block::new(profile)`, with
/// [`axis_io!`]'s methods for its ports: `profile_core!(Utf8DecoderX4,
/// Reference; m_tuser tkeep)`.
#[macro_export]
macro_rules! profile_core {
    ($block:ty, $model:ident; $($port:ident)*) => {
        fn profile(&self) -> $crate::reference::Profile {
            self.0
        }

        fn model(&self) -> $model {
            $model(self.0)
        }

        fn block(&self) -> $block {
            <$block>::new(self.0)
        }

        $crate::axis_io!($block; $($port)*);
    };
}

/// A core of many lane counts, `$core<N>(pub Profile)`, one `impl Core`
/// each: its block is the alias of its lane count (the other widths of a
/// block are ones stable Rust cannot compute from N), its name
/// `$module_name(profile, N)`, its latency its block's, its ports those of
/// [`profile_core!`] with `tkeep`; `$body` says the rest (its kind, lanes,
/// model, waveform state).
#[macro_export]
macro_rules! lane_count_cores {
    (@one $core:ident, $module_name:path, $model:ident, $lanes:literal, $block:ident,
        { $($body:tt)* }) => {
        impl $crate::core::Core for $core<$lanes> {
            type Block = $block;
            type Model = $model;
            const LATENCY: u64 = $block::LATENCY;

            $($body)*

            fn name(&self) -> String {
                $module_name(self.0, $lanes)
            }

            $crate::profile_core!($block, $model; m_tuser tkeep);
        }
    };
    ($core:ident, $module_name:path, $model:ident $body:tt
        $($lanes:literal => $block:ident),* $(,)?) => {
        $($crate::lane_count_cores!(@one $core, $module_name, $model, $lanes, $block, $body);)*
    };
}
