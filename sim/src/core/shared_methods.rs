//! Methods that several cores and units write the same way, written once.

/// The [`Unit`](crate::core::Unit) methods `span`, `span_mut` and `error`
/// of a unit whose fields `span` and `error` hold them.
#[macro_export]
macro_rules! unit_span_and_error {
    () => {
        fn span(&self) -> std::ops::Range<usize> {
            self.span.clone()
        }

        fn span_mut(&mut self) -> &mut std::ops::Range<usize> {
            &mut self.span
        }

        fn error(&self) -> Option<$crate::reference::ErrorKind> {
            self.error
        }
    };
}

/// The [`Core`](crate::core::Core) methods `name`, `profile`, `model` and
/// `block` of a core that comes in one profile, RFC 3629, whose reference
/// model is `$model` and whose block is its `Default`, and its port
/// methods ([`axis_io!`](crate::axis_io), with the optional ports after
/// the `;`): `rfc3629_core!("char_properties", CharProperties, Reference; m_tuser)`.
#[macro_export]
macro_rules! rfc3629_core {
    ($name:literal, $block:ty, $model:expr; $($port:ident)*) => {
        fn name(&self) -> String {
            $name.into()
        }

        fn profile(&self) -> $crate::reference::Profile {
            $crate::reference::Profile::Rfc3629
        }

        fn model(&self) -> Self::Model {
            $model
        }

        fn block(&self) -> $block {
            <$block>::default()
        }

        $crate::axis_io!($block; $($port)*);
    };
}
