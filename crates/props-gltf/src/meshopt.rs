//! Buffer views compressed by meshoptimizer (`EXT_meshopt_compression`, as gltfpack and
//! glTF-Transform write them, and `KHR_meshopt_compression`), decoded by meshoptimizer's own
//! decoders (the `meshopt` crate, safe on untrusted input) once their declared size is checked
//! against the limits and charged to the decoded-bytes budget. A view is decoded when something
//! reads it, so nothing that nothing reads is decompressed.
//!
//! A buffer the extension marks `fallback` may have no data: only compressed views refer to it.

use gltf::json::buffer::{Buffer, View};
use meshopt::{decode_filter_color, decode_filter_exp, decode_filter_oct, decode_filter_quat};
use serde::Deserialize;
use serde_json::Value;

use crate::error::{ErrorKind, ImportError};
use crate::limits::{self, Budget, Limits};

/// The extensions, in the order a view's compression is looked up.
pub(crate) const EXTENSIONS: [&str; 2] = ["EXT_meshopt_compression", "KHR_meshopt_compression"];

/// A view's compression, as the extension writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Compression {
    /// The buffer holding the compressed bytes.
    pub buffer: usize,
    #[serde(default)]
    byte_offset: u64,
    byte_length: u64,
    byte_stride: u64,
    count: u64,
    mode: String,
    #[serde(default = "no_filter")]
    filter: String,
}

fn no_filter() -> String {
    "NONE".to_owned()
}

impl Compression {
    /// The compression of `view`, if it has one (`Err`: it has one that cannot be read).
    pub(crate) fn of(view: &View, path: &str) -> Option<Result<Self, ImportError>> {
        let others = &view.extensions.as_ref()?.others;
        let value = EXTENSIONS.iter().find_map(|name| others.get(*name))?;
        Some(Self::deserialize(value).map_err(|error| decode_error(path, error.to_string())))
    }

    /// The range of the compressed bytes in their buffer.
    pub(crate) fn range(&self) -> (u64, u64) {
        (self.byte_offset, self.byte_offset.saturating_add(self.byte_length))
    }

    /// Decodes `compressed` (this compression's bytes) into `count * byteStride` bytes.
    pub(crate) fn decode(
        &self,
        compressed: &[u8],
        limits: &Limits,
        budget: &Budget,
        path: &str,
    ) -> Result<Vec<u8>, ImportError> {
        let failed = |reason: String| decode_error(path, reason);
        let (count, stride) = (self.count, self.byte_stride);
        let size = count.saturating_mul(stride);
        limits::check(size, limits.max_buffer_bytes, "decompressed size of the buffer view, in bytes", path)?;
        // The decoder's output, its copy as bytes, and a filter's copy are alive at once.
        let copies = if self.filter == "NONE" { 2 } else { 3 };
        budget.charge(size.saturating_mul(copies), path)?;
        let count = usize::try_from(count).map_err(|_| failed(format!("count {count} is too large")))?;
        // Every precondition meshoptimizer asserts (an assertion would end the game) is checked
        // here first: vertex sizes of 4 to 256 bytes in steps of 4, whole triangles, 2- or
        // 4-byte indices, the filters' strides (in `unfilter`).
        if self.mode == "TRIANGLES" && !count.is_multiple_of(3) {
            return Err(failed(format!("TRIANGLES needs whole triangles, not {count} indices")));
        }
        let mut bytes = match (self.mode.as_str(), stride) {
            ("ATTRIBUTES", 4..=256) if stride % 4 == 0 => vertices(compressed, count, stride as usize),
            ("TRIANGLES", 2) => meshopt::decode_index_buffer::<u16>(compressed, count).map(|v| le_bytes(&v)),
            ("TRIANGLES", 4) => meshopt::decode_index_buffer::<u32>(compressed, count).map(|v| le_bytes(&v)),
            ("INDICES", 2) => meshopt::decode_index_sequence::<u16>(compressed, count).map(|v| le_bytes(&v)),
            ("INDICES", 4) => meshopt::decode_index_sequence::<u32>(compressed, count).map(|v| le_bytes(&v)),
            (mode, stride) => return Err(failed(format!("mode {mode} with byteStride {stride} is not defined"))),
        }
        .map_err(|error| failed(format!("meshoptimizer could not decode it ({error:?})")))?;
        self.unfilter(&mut bytes, path)?;
        Ok(bytes)
    }

    /// Undoes the filter of decoded vertex data in place.
    fn unfilter(&self, bytes: &mut [u8], path: &str) -> Result<(), ImportError> {
        match (self.filter.as_str(), self.byte_stride) {
            ("NONE", _) => {}
            ("OCTAHEDRAL", 4) if self.mode == "ATTRIBUTES" => {
                in_place(bytes, |data: &mut [[i8; 4]]| decode_filter_oct(data))
            }
            ("OCTAHEDRAL", 8) if self.mode == "ATTRIBUTES" => {
                in_place(bytes, |data: &mut [[i16; 4]]| decode_filter_oct(data))
            }
            ("QUATERNION", 8) if self.mode == "ATTRIBUTES" => {
                in_place(bytes, |data: &mut [[i16; 4]]| decode_filter_quat(data))
            }
            // KHR_meshopt_compression's colours (YCoCg), of 8 or 16 bits.
            ("COLOR", 4) if self.mode == "ATTRIBUTES" => {
                in_place(bytes, |data: &mut [[u8; 4]]| decode_filter_color(data))
            }
            ("COLOR", 8) if self.mode == "ATTRIBUTES" => {
                in_place(bytes, |data: &mut [[u16; 4]]| decode_filter_color(data))
            }
            // Each 32-bit component is decoded alone, whatever the stride.
            ("EXPONENTIAL", stride) if self.mode == "ATTRIBUTES" && stride % 4 == 0 => {
                in_place(bytes, |data: &mut [[u32; 1]]| decode_filter_exp(data))
            }
            (filter, stride) => {
                return Err(decode_error(path, format!("filter {filter} with byteStride {stride} is not defined")));
            }
        }
        Ok(())
    }
}

/// Whether `buffer` is one that only compressed views refer to, which may have no data.
pub(crate) fn is_fallback(buffer: &Buffer) -> bool {
    let others = buffer.extensions.as_ref().map(|e| &e.others);
    EXTENSIONS.iter().any(|name| {
        others.and_then(|o| o.get(*name)).and_then(|e| e.get("fallback")).and_then(Value::as_bool) == Some(true)
    })
}

fn decode_error(path: &str, reason: String) -> ImportError {
    ImportError::at(path, ErrorKind::Decompression { reason })
}

/// A vertex of `N` bytes, for meshoptimizer's decoder (which takes the vertex size from the type).
#[derive(Clone, Copy)]
struct Vertex<const N: usize>([u8; N]);

impl<const N: usize> Default for Vertex<N> {
    fn default() -> Self {
        Self([0; N])
    }
}

fn vertices_of<const N: usize>(compressed: &[u8], count: usize) -> meshopt::Result<Vec<u8>> {
    let decoded = meshopt::decode_vertex_buffer::<Vertex<N>>(compressed, count)?;
    Ok(decoded.iter().flat_map(|v| v.0).collect())
}

/// Vertex data of `stride` bytes (a multiple of 4, at most 256) per vertex.
fn vertices(compressed: &[u8], count: usize, stride: usize) -> meshopt::Result<Vec<u8>> {
    macro_rules! by_stride {
        ($($n:literal)*) => {
            match stride {
                $($n => vertices_of::<$n>(compressed, count),)*
                _ => Err(meshopt::Error::Memory("unsupported vertex size".into())),
            }
        };
    }
    by_stride!(4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 96 100 104 108 112 116 120 124
        128 132 136 140 144 148 152 156 160 164 168 172 176 180 184 188 192 196 200 204 208 212 216 220 224 228 232
        236 240 244 248 252 256)
}

/// Little-endian bytes of indices.
fn le_bytes<T: Copy + Into<u32>>(values: &[T]) -> Vec<u8> {
    if size_of::<T>() == 2 {
        values.iter().flat_map(|&v| (v.into() as u16).to_le_bytes()).collect()
    } else {
        values.iter().flat_map(|&v| v.into().to_le_bytes()).collect()
    }
}

/// Runs `filter` over `bytes` seen as elements of `[C; K]` (little-endian), writing them back.
fn in_place<C: Component, const K: usize>(bytes: &mut [u8], filter: impl FnOnce(&mut [[C; K]])) {
    let size = size_of::<C>();
    let mut elements: Vec<[C; K]> = bytes
        .chunks_exact(size * K)
        .map(|chunk| std::array::from_fn(|k| C::from_le(&chunk[k * size..(k + 1) * size])))
        .collect();
    filter(&mut elements);
    for (chunk, element) in bytes.chunks_exact_mut(size * K).zip(&elements) {
        for (k, component) in element.iter().enumerate() {
            component.to_le(&mut chunk[k * size..(k + 1) * size]);
        }
    }
}

/// A component the filters work on.
trait Component: Copy + Default {
    fn from_le(bytes: &[u8]) -> Self;
    fn to_le(self, out: &mut [u8]);
}

macro_rules! component {
    ($($t:ty)*) => {$(
        impl Component for $t {
            fn from_le(bytes: &[u8]) -> Self {
                let mut array = [0; size_of::<$t>()];
                array.copy_from_slice(bytes);
                <$t>::from_le_bytes(array)
            }
            fn to_le(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
component!(i8 u8 i16 u16 u32);

#[cfg(test)]
mod tests {
    use super::*;

    fn compression(mode: &str, count: u64, byte_stride: u64, filter: &str) -> Compression {
        let (mode, filter) = (mode.to_owned(), filter.to_owned());
        Compression { buffer: 0, byte_offset: 0, byte_length: 64, byte_stride, count, mode, filter }
    }

    /// Colours filtered as KHR_meshopt_compression's COLOR filter writes them (YCoCg) decode
    /// to the colours, of 8 bits and of 16.
    #[test]
    fn colour_filtered_attributes_decode_to_their_colours() {
        let (limits, budget) = (Limits::default(), Budget::new(Limits::default().max_decoded_bytes));
        let colours = [[1.0, 0.5, 0.25, 1.0], [0.0, 0.0, 0.0, 0.5], [0.2, 0.9, 0.4, 0.0], [0.7, 0.7, 0.7, 1.0]];
        let eight: Vec<[u8; 4]> = meshopt::encode_filter_color(&colours, 8);
        let compressed = meshopt::encode_vertex_buffer(&eight).expect("encodes");
        let decoded = compression("ATTRIBUTES", 4, 4, "COLOR").decode(&compressed, &limits, &budget, "bufferViews[0]");
        let decoded = decoded.expect("decodes");
        for (colour, texel) in colours.iter().zip(decoded.chunks_exact(4)) {
            for (c, &t) in colour.iter().zip(texel) {
                assert!((c * 255.0 - f32::from(t)).abs() <= 2.0, "{colour:?} came back as {texel:?}");
            }
        }
        let sixteen: Vec<[u16; 4]> = meshopt::encode_filter_color(&colours, 12);
        let compressed = meshopt::encode_vertex_buffer(&sixteen).expect("encodes");
        let decoded = compression("ATTRIBUTES", 4, 8, "COLOR").decode(&compressed, &limits, &budget, "bufferViews[0]");
        let decoded = decoded.expect("decodes");
        for (colour, texel) in colours.iter().zip(decoded.chunks_exact(8)) {
            for (c, t) in colour.iter().zip(texel.chunks_exact(2)) {
                let t = f32::from(u16::from_le_bytes([t[0], t[1]]));
                assert!((c * 65535.0 - t).abs() <= 65535.0 / 1000.0, "{colour:?} came back as {texel:?}");
            }
        }
    }

    /// What meshoptimizer asserts is refused before it is called (the fuzzer found a 4-index
    /// triangle list ending the process), and garbage decodes to an error, not a crash.
    #[test]
    fn what_the_decoder_would_assert_is_refused_first() {
        let (limits, budget) = (Limits::default(), Budget::new(Limits::default().max_decoded_bytes));
        let garbage = [0xa1_u8; 64];
        for bad in [
            compression("TRIANGLES", 4, 2, "NONE"),
            compression("ATTRIBUTES", 4, 6, "NONE"),
            compression("ATTRIBUTES", 4, 260, "NONE"),
            compression("INDICES", 4, 3, "NONE"),
            compression("ATTRIBUTES", 4, 12, "OCTAHEDRAL"),
            compression("TRIANGLES", 3, 4, "EXPONENTIAL"),
            compression("POINTS", 3, 4, "NONE"),
        ] {
            let result = bad.decode(&garbage, &limits, &budget, "bufferViews[0]");
            assert!(matches!(result, Err(ImportError { kind: ErrorKind::Decompression { .. }, .. })), "{bad:?}");
        }
        for data in [&garbage[..], &[0xa0; 3], &[]] {
            for mode in [("ATTRIBUTES", 16), ("TRIANGLES", 4), ("INDICES", 2)] {
                let decoded = compression(mode.0, 30, mode.1, "NONE").decode(data, &limits, &budget, "bufferViews[0]");
                assert!(decoded.is_err(), "{mode:?} from {} bytes of garbage", data.len());
            }
        }
    }
}
