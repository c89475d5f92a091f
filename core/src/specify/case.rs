//! A character's lower and upper case as `char::to_lowercase` and `char::to_uppercase` give
//! them, from tables of ranges (4.5 KB) instead of the standard library's two tables of every
//! character (24 KB of data that a browser's page would download: docs/performance.md § wasm
//! size). A test holds them to the standard library for every character.

/// Pushes `c` in lower case (`char::to_lowercase`) onto `out`.
pub fn push_lower(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
    } else {
        push_mapped(c, &LOWER, &LOWER_MORE, out);
    }
}

/// Pushes `c` in upper case (`char::to_uppercase`) onto `out`.
pub fn push_upper(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_uppercase());
    } else {
        push_mapped(c, &UPPER, &UPPER_MORE, out);
    }
}

/// Pushes what `c` maps to in `ranges` and `more` (itself when neither holds it).
fn push_mapped(c: char, ranges: &[(u32, i32)], more: &[(u16, [u16; 3])], out: &mut String) {
    let code = u32::from(c);
    if let Ok(short) = u16::try_from(code) {
        if let Ok(at) = more.binary_search_by_key(&short, |m| m.0) {
            if let Some((_, chars)) = more.get(at) {
                let chars = chars.iter().take_while(|&&m| m != 0);
                out.extend(chars.filter_map(|&m| char::from_u32(u32::from(m))));
                return;
            }
        }
    }
    let after = ranges.partition_point(|&(key, _)| key >> 8 <= code);
    let range = after.checked_sub(1).and_then(|at| ranges.get(at));
    if let Some(&(key, delta)) = range {
        let stride = if key & 1 == 0 { 1 } else { 2 };
        let (start, count) = (key >> 8, (key >> 1) & 0x7f);
        let offset = code.saturating_sub(start);
        let step = offset.checked_div(stride).unwrap_or(u32::MAX);
        if offset.checked_rem(stride) == Some(0) && step < count {
            if let Some(mapped) = code.checked_add_signed(delta).and_then(char::from_u32) {
                out.push(mapped);
                return;
            }
        }
    }
    out.push(c);
}

// The tables below are generated from the standard library by `tables_source` (in the tests):
// when `the_tables_are_the_standard_librarys` fails (a new Unicode version in a new Rust), put
// what it prints in their place.

/// `LOWER`'s ranges: (start << 8 | count << 1 | stride two, delta).
#[rustfmt::skip]
static LOWER: [(u32, i32); 185] = [
    (0x00004134, 32), (0x0000c02e, 32), (0x0000d80e, 32), (0x00010031, 1),
    (0x00013207, 1), (0x00013911, 1), (0x00014a2f, 1), (0x00017802, -121),
    (0x00017907, 1), (0x00018102, 210), (0x00018205, 1), (0x00018602, 206),
    (0x00018702, 1), (0x00018904, 205), (0x00018b02, 1), (0x00018e02, 79),
    (0x00018f02, 202), (0x00019002, 203), (0x00019102, 1), (0x00019302, 205),
    (0x00019402, 207), (0x00019602, 211), (0x00019702, 209), (0x00019802, 1),
    (0x00019c02, 211), (0x00019d02, 213), (0x00019f02, 214), (0x0001a007, 1),
    (0x0001a602, 218), (0x0001a702, 1), (0x0001a902, 218), (0x0001ac02, 1),
    (0x0001ae02, 218), (0x0001af02, 1), (0x0001b104, 217), (0x0001b305, 1),
    (0x0001b702, 219), (0x0001b802, 1), (0x0001bc02, 1), (0x0001c402, 2),
    (0x0001c502, 1), (0x0001c702, 2), (0x0001c802, 1), (0x0001ca02, 2),
    (0x0001cb13, 1), (0x0001de13, 1), (0x0001f102, 2), (0x0001f205, 1),
    (0x0001f602, -97), (0x0001f702, -56), (0x0001f829, 1), (0x00022002, -130),
    (0x00022213, 1), (0x00023a02, 10795), (0x00023b02, 1), (0x00023d02, -163),
    (0x00023e02, 10792), (0x00024102, 1), (0x00024302, -195), (0x00024402, 69),
    (0x00024502, 71), (0x0002460b, 1), (0x00037005, 1), (0x00037602, 1),
    (0x00037f02, 116), (0x00038602, 38), (0x00038806, 37), (0x00038c02, 64),
    (0x00038e04, 63), (0x00039122, 32), (0x0003a312, 32), (0x0003cf02, 8),
    (0x0003d819, 1), (0x0003f402, -60), (0x0003f702, 1), (0x0003f902, -7),
    (0x0003fa02, 1), (0x0003fd06, -130), (0x00040020, 80), (0x00041040, 32),
    (0x00046023, 1), (0x00048a37, 1), (0x0004c002, 15), (0x0004c10f, 1),
    (0x0004d061, 1), (0x0005314c, 48), (0x0010a04c, 7264), (0x0010c702, 7264),
    (0x0010cd02, 7264), (0x0013a0a0, 38864), (0x0013f00c, 8), (0x001c8902, 1),
    (0x001c9056, -3008), (0x001cbd06, -3008), (0x001e0097, 1), (0x001e9e02, -7615),
    (0x001ea061, 1), (0x001f0810, -8), (0x001f180c, -8), (0x001f2810, -8),
    (0x001f3810, -8), (0x001f480c, -8), (0x001f5909, -8), (0x001f6810, -8),
    (0x001f8810, -8), (0x001f9810, -8), (0x001fa810, -8), (0x001fb804, -8),
    (0x001fba04, -74), (0x001fbc02, -9), (0x001fc808, -86), (0x001fcc02, -9),
    (0x001fd804, -8), (0x001fda04, -100), (0x001fe804, -8), (0x001fea04, -112),
    (0x001fec02, -7), (0x001ff804, -128), (0x001ffa04, -126), (0x001ffc02, -9),
    (0x00212602, -7517), (0x00212a02, -8383), (0x00212b02, -8262), (0x00213202, 28),
    (0x00216020, 16), (0x00218302, 1), (0x0024b634, 26), (0x002c0060, 48),
    (0x002c6002, 1), (0x002c6202, -10743), (0x002c6302, -3814), (0x002c6402, -10727),
    (0x002c6707, 1), (0x002c6d02, -10780), (0x002c6e02, -10749), (0x002c6f02, -10783),
    (0x002c7002, -10782), (0x002c7202, 1), (0x002c7502, 1), (0x002c7e04, -10815),
    (0x002c8065, 1), (0x002ceb05, 1), (0x002cf202, 1), (0x00a6402f, 1),
    (0x00a6801d, 1), (0x00a7220f, 1), (0x00a7323f, 1), (0x00a77905, 1),
    (0x00a77d02, -35332), (0x00a77e0b, 1), (0x00a78b02, 1), (0x00a78d02, -42280),
    (0x00a79005, 1), (0x00a79615, 1), (0x00a7aa02, -42308), (0x00a7ab02, -42319),
    (0x00a7ac02, -42315), (0x00a7ad02, -42305), (0x00a7ae02, -42308), (0x00a7b002, -42258),
    (0x00a7b102, -42282), (0x00a7b202, -42261), (0x00a7b302, 928), (0x00a7b411, 1),
    (0x00a7c402, -48), (0x00a7c502, -42307), (0x00a7c602, -35384), (0x00a7c705, 1),
    (0x00a7cb02, -42343), (0x00a7cc11, 1), (0x00a7dc02, -42561), (0x00a7f502, 1),
    (0x00ff2134, 32), (0x01040050, 40), (0x0104b048, 40), (0x01057016, 39),
    (0x01057c1e, 39), (0x01058c0e, 39), (0x01059404, 39), (0x010c8066, 64),
    (0x010d502c, 32), (0x0118a040, 32), (0x016e4040, 32), (0x016ea032, 27),
    (0x01e90044, 34),
];
/// `LOWER`'s mappings to more than one character.
#[rustfmt::skip]
static LOWER_MORE: [(u16, [u16; 3]); 1] = [
    (0x0130, [0x0069, 0x0307, 0x0000]),
];
/// `UPPER`'s ranges: (start << 8 | count << 1 | stride two, delta).
#[rustfmt::skip]
static UPPER: [(u32, i32); 198] = [
    (0x00006134, -32), (0x0000b502, 743), (0x0000e02e, -32), (0x0000f80e, -32),
    (0x0000ff02, 121), (0x00010131, -1), (0x00013102, -232), (0x00013307, -1),
    (0x00013a11, -1), (0x00014b2f, -1), (0x00017a07, -1), (0x00017f02, -300),
    (0x00018002, 195), (0x00018305, -1), (0x00018802, -1), (0x00018c02, -1),
    (0x00019202, -1), (0x00019502, 97), (0x00019902, -1), (0x00019a02, 163),
    (0x00019b02, 42561), (0x00019e02, 130), (0x0001a107, -1), (0x0001a802, -1),
    (0x0001ad02, -1), (0x0001b002, -1), (0x0001b405, -1), (0x0001b902, -1),
    (0x0001bd02, -1), (0x0001bf02, 56), (0x0001c502, -1), (0x0001c602, -2),
    (0x0001c802, -1), (0x0001c902, -2), (0x0001cb02, -1), (0x0001cc02, -2),
    (0x0001ce11, -1), (0x0001dd02, -79), (0x0001df13, -1), (0x0001f202, -1),
    (0x0001f302, -2), (0x0001f502, -1), (0x0001f929, -1), (0x00022313, -1),
    (0x00023c02, -1), (0x00023f04, 10815), (0x00024202, -1), (0x0002470b, -1),
    (0x00025002, 10783), (0x00025102, 10780), (0x00025202, 10782), (0x00025302, -210),
    (0x00025402, -206), (0x00025604, -205), (0x00025902, -202), (0x00025b02, -203),
    (0x00025c02, 42319), (0x00026002, -205), (0x00026102, 42315), (0x00026302, -207),
    (0x00026402, 42343), (0x00026502, 42280), (0x00026602, 42308), (0x00026802, -209),
    (0x00026902, -211), (0x00026a02, 42308), (0x00026b02, 10743), (0x00026c02, 42305),
    (0x00026f02, -211), (0x00027102, 10749), (0x00027202, -213), (0x00027502, -214),
    (0x00027d02, 10727), (0x00028002, -218), (0x00028202, 42307), (0x00028302, -218),
    (0x00028702, 42282), (0x00028802, -218), (0x00028902, -69), (0x00028a04, -217),
    (0x00028c02, -71), (0x00029202, -219), (0x00029d02, 42261), (0x00029e02, 42258),
    (0x00034502, 84), (0x00037105, -1), (0x00037702, -1), (0x00037b06, 130),
    (0x0003ac02, -38), (0x0003ad06, -37), (0x0003b122, -32), (0x0003c202, -31),
    (0x0003c312, -32), (0x0003cc02, -64), (0x0003cd04, -63), (0x0003d002, -62),
    (0x0003d102, -57), (0x0003d502, -47), (0x0003d602, -54), (0x0003d702, -8),
    (0x0003d919, -1), (0x0003f002, -86), (0x0003f102, -80), (0x0003f202, 7),
    (0x0003f302, -116), (0x0003f502, -96), (0x0003f802, -1), (0x0003fb02, -1),
    (0x00043040, -32), (0x00045020, -80), (0x00046123, -1), (0x00048b37, -1),
    (0x0004c20f, -1), (0x0004cf02, -15), (0x0004d161, -1), (0x0005614c, -48),
    (0x0010d056, 3008), (0x0010fd06, 3008), (0x0013f80c, -8), (0x001c8002, -6254),
    (0x001c8102, -6253), (0x001c8202, -6244), (0x001c8304, -6242), (0x001c8502, -6243),
    (0x001c8602, -6236), (0x001c8702, -6181), (0x001c8802, 35266), (0x001c8a02, -1),
    (0x001d7902, 35332), (0x001d7d02, 3814), (0x001d8e02, 35384), (0x001e0197, -1),
    (0x001e9b02, -59), (0x001ea161, -1), (0x001f0010, 8), (0x001f100c, 8),
    (0x001f2010, 8), (0x001f3010, 8), (0x001f400c, 8), (0x001f5109, 8),
    (0x001f6010, 8), (0x001f7004, 74), (0x001f7208, 86), (0x001f7604, 100),
    (0x001f7804, 128), (0x001f7a04, 112), (0x001f7c04, 126), (0x001fb004, 8),
    (0x001fbe02, -7205), (0x001fd004, 8), (0x001fe004, 8), (0x001fe502, 7),
    (0x00214e02, -28), (0x00217020, -16), (0x00218402, -1), (0x0024d034, -26),
    (0x002c3060, -48), (0x002c6102, -1), (0x002c6502, -10795), (0x002c6602, -10792),
    (0x002c6807, -1), (0x002c7302, -1), (0x002c7602, -1), (0x002c8165, -1),
    (0x002cec05, -1), (0x002cf302, -1), (0x002d004c, -7264), (0x002d2702, -7264),
    (0x002d2d02, -7264), (0x00a6412f, -1), (0x00a6811d, -1), (0x00a7230f, -1),
    (0x00a7333f, -1), (0x00a77a05, -1), (0x00a77f0b, -1), (0x00a78c02, -1),
    (0x00a79105, -1), (0x00a79402, 48), (0x00a79715, -1), (0x00a7b511, -1),
    (0x00a7c805, -1), (0x00a7cd11, -1), (0x00a7f602, -1), (0x00ab5302, -928),
    (0x00ab70a0, -38864), (0x00ff4134, -32), (0x01042850, -40), (0x0104d848, -40),
    (0x01059716, -39), (0x0105a31e, -39), (0x0105b30e, -39), (0x0105bb04, -39),
    (0x010cc066, -64), (0x010d702c, -32), (0x0118c040, -32), (0x016e6040, -32),
    (0x016ebb32, -27), (0x01e92244, -34),
];
/// `UPPER`'s mappings to more than one character.
#[rustfmt::skip]
static UPPER_MORE: [(u16, [u16; 3]); 102] = [
    (0x00df, [0x0053, 0x0053, 0x0000]), (0x0149, [0x02bc, 0x004e, 0x0000]), (0x01f0, [0x004a, 0x030c, 0x0000]),
    (0x0390, [0x0399, 0x0308, 0x0301]), (0x03b0, [0x03a5, 0x0308, 0x0301]), (0x0587, [0x0535, 0x0552, 0x0000]),
    (0x1e96, [0x0048, 0x0331, 0x0000]), (0x1e97, [0x0054, 0x0308, 0x0000]), (0x1e98, [0x0057, 0x030a, 0x0000]),
    (0x1e99, [0x0059, 0x030a, 0x0000]), (0x1e9a, [0x0041, 0x02be, 0x0000]), (0x1f50, [0x03a5, 0x0313, 0x0000]),
    (0x1f52, [0x03a5, 0x0313, 0x0300]), (0x1f54, [0x03a5, 0x0313, 0x0301]), (0x1f56, [0x03a5, 0x0313, 0x0342]),
    (0x1f80, [0x1f08, 0x0399, 0x0000]), (0x1f81, [0x1f09, 0x0399, 0x0000]), (0x1f82, [0x1f0a, 0x0399, 0x0000]),
    (0x1f83, [0x1f0b, 0x0399, 0x0000]), (0x1f84, [0x1f0c, 0x0399, 0x0000]), (0x1f85, [0x1f0d, 0x0399, 0x0000]),
    (0x1f86, [0x1f0e, 0x0399, 0x0000]), (0x1f87, [0x1f0f, 0x0399, 0x0000]), (0x1f88, [0x1f08, 0x0399, 0x0000]),
    (0x1f89, [0x1f09, 0x0399, 0x0000]), (0x1f8a, [0x1f0a, 0x0399, 0x0000]), (0x1f8b, [0x1f0b, 0x0399, 0x0000]),
    (0x1f8c, [0x1f0c, 0x0399, 0x0000]), (0x1f8d, [0x1f0d, 0x0399, 0x0000]), (0x1f8e, [0x1f0e, 0x0399, 0x0000]),
    (0x1f8f, [0x1f0f, 0x0399, 0x0000]), (0x1f90, [0x1f28, 0x0399, 0x0000]), (0x1f91, [0x1f29, 0x0399, 0x0000]),
    (0x1f92, [0x1f2a, 0x0399, 0x0000]), (0x1f93, [0x1f2b, 0x0399, 0x0000]), (0x1f94, [0x1f2c, 0x0399, 0x0000]),
    (0x1f95, [0x1f2d, 0x0399, 0x0000]), (0x1f96, [0x1f2e, 0x0399, 0x0000]), (0x1f97, [0x1f2f, 0x0399, 0x0000]),
    (0x1f98, [0x1f28, 0x0399, 0x0000]), (0x1f99, [0x1f29, 0x0399, 0x0000]), (0x1f9a, [0x1f2a, 0x0399, 0x0000]),
    (0x1f9b, [0x1f2b, 0x0399, 0x0000]), (0x1f9c, [0x1f2c, 0x0399, 0x0000]), (0x1f9d, [0x1f2d, 0x0399, 0x0000]),
    (0x1f9e, [0x1f2e, 0x0399, 0x0000]), (0x1f9f, [0x1f2f, 0x0399, 0x0000]), (0x1fa0, [0x1f68, 0x0399, 0x0000]),
    (0x1fa1, [0x1f69, 0x0399, 0x0000]), (0x1fa2, [0x1f6a, 0x0399, 0x0000]), (0x1fa3, [0x1f6b, 0x0399, 0x0000]),
    (0x1fa4, [0x1f6c, 0x0399, 0x0000]), (0x1fa5, [0x1f6d, 0x0399, 0x0000]), (0x1fa6, [0x1f6e, 0x0399, 0x0000]),
    (0x1fa7, [0x1f6f, 0x0399, 0x0000]), (0x1fa8, [0x1f68, 0x0399, 0x0000]), (0x1fa9, [0x1f69, 0x0399, 0x0000]),
    (0x1faa, [0x1f6a, 0x0399, 0x0000]), (0x1fab, [0x1f6b, 0x0399, 0x0000]), (0x1fac, [0x1f6c, 0x0399, 0x0000]),
    (0x1fad, [0x1f6d, 0x0399, 0x0000]), (0x1fae, [0x1f6e, 0x0399, 0x0000]), (0x1faf, [0x1f6f, 0x0399, 0x0000]),
    (0x1fb2, [0x1fba, 0x0399, 0x0000]), (0x1fb3, [0x0391, 0x0399, 0x0000]), (0x1fb4, [0x0386, 0x0399, 0x0000]),
    (0x1fb6, [0x0391, 0x0342, 0x0000]), (0x1fb7, [0x0391, 0x0342, 0x0399]), (0x1fbc, [0x0391, 0x0399, 0x0000]),
    (0x1fc2, [0x1fca, 0x0399, 0x0000]), (0x1fc3, [0x0397, 0x0399, 0x0000]), (0x1fc4, [0x0389, 0x0399, 0x0000]),
    (0x1fc6, [0x0397, 0x0342, 0x0000]), (0x1fc7, [0x0397, 0x0342, 0x0399]), (0x1fcc, [0x0397, 0x0399, 0x0000]),
    (0x1fd2, [0x0399, 0x0308, 0x0300]), (0x1fd3, [0x0399, 0x0308, 0x0301]), (0x1fd6, [0x0399, 0x0342, 0x0000]),
    (0x1fd7, [0x0399, 0x0308, 0x0342]), (0x1fe2, [0x03a5, 0x0308, 0x0300]), (0x1fe3, [0x03a5, 0x0308, 0x0301]),
    (0x1fe4, [0x03a1, 0x0313, 0x0000]), (0x1fe6, [0x03a5, 0x0342, 0x0000]), (0x1fe7, [0x03a5, 0x0308, 0x0342]),
    (0x1ff2, [0x1ffa, 0x0399, 0x0000]), (0x1ff3, [0x03a9, 0x0399, 0x0000]), (0x1ff4, [0x038f, 0x0399, 0x0000]),
    (0x1ff6, [0x03a9, 0x0342, 0x0000]), (0x1ff7, [0x03a9, 0x0342, 0x0399]), (0x1ffc, [0x03a9, 0x0399, 0x0000]),
    (0xfb00, [0x0046, 0x0046, 0x0000]), (0xfb01, [0x0046, 0x0049, 0x0000]), (0xfb02, [0x0046, 0x004c, 0x0000]),
    (0xfb03, [0x0046, 0x0046, 0x0049]), (0xfb04, [0x0046, 0x0046, 0x004c]), (0xfb05, [0x0053, 0x0054, 0x0000]),
    (0xfb06, [0x0053, 0x0054, 0x0000]), (0xfb13, [0x0544, 0x0546, 0x0000]), (0xfb14, [0x0544, 0x0535, 0x0000]),
    (0xfb15, [0x0544, 0x053b, 0x0000]), (0xfb16, [0x054e, 0x0546, 0x0000]), (0xfb17, [0x0544, 0x053d, 0x0000]),
];

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::type_complexity
)]
mod tests {
    use super::*;

    /// The ranges and the longer mappings of `map` (`char::to_lowercase` or `to_uppercase`), as the tables hold them.
    fn ranges_of(map: fn(char) -> Vec<char>) -> (Vec<(u32, i32)>, Vec<(u16, [u16; 3])>) {
        let mut singles: Vec<(u32, i32)> = Vec::new();
        let mut multi = Vec::new();
        for c in (0..=0x10FFFF_u32).filter_map(char::from_u32) {
            let mapped = map(c);
            match mapped.as_slice() {
                [one] if *one == c => {}
                [one] => singles.push((
                    u32::from(c),
                    i64::from(u32::from(*one)).wrapping_sub(i64::from(u32::from(c))) as i32,
                )),
                more => {
                    let mut padded = [0_u16; 3];
                    for (slot, m) in padded.iter_mut().zip(more) {
                        *slot = u16::try_from(u32::from(*m)).unwrap_or(0);
                    }
                    multi.push((u16::try_from(u32::from(c)).unwrap_or(0), padded));
                }
            }
        }
        let mut ranges = Vec::new();
        let mut rest = singles.as_slice();
        while let Some(&(start, delta)) = rest.first() {
            let run = |stride: u32| {
                rest.iter()
                    .enumerate()
                    .take_while(|(n, (c, d))| *d == delta && *c == start + stride * *n as u32)
                    .count()
                    .min(127)
            };
            let (one, two) = (run(1), run(2));
            let (count, stride_two) = if two > one { (two, 1) } else { (one, 0) };
            ranges.push((start << 8 | (count as u32) << 1 | stride_two, delta));
            rest = &rest[count..];
        }
        (ranges, multi)
    }

    /// The tables' source.
    fn tables_source() -> String {
        let mut out = String::new();
        let lower: fn(char) -> Vec<char> = |c| c.to_lowercase().collect();
        let upper: fn(char) -> Vec<char> = |c| c.to_uppercase().collect();
        for (name, map) in [("LOWER", lower), ("UPPER", upper)] {
            let (ranges, multi) = ranges_of(map);
            out.push_str(&format!("/// `{name}`'s ranges: (start << 8 | count << 1 | stride two, delta).\n#[rustfmt::skip]\nstatic {name}: [(u32, i32); {}] = [\n", ranges.len()));
            for chunk in ranges.chunks(4) {
                let items: Vec<String> = chunk
                    .iter()
                    .map(|(k, d)| format!("(0x{k:08x}, {d})"))
                    .collect();
                out.push_str(&format!("    {},\n", items.join(", ")));
            }
            out.push_str("];\n");
            out.push_str(&format!("/// `{name}`'s mappings to more than one character.\n#[rustfmt::skip]\nstatic {name}_MORE: [(u16, [u16; 3]); {}] = [\n", multi.len()));
            for chunk in multi.chunks(3) {
                let items: Vec<String> = chunk
                    .iter()
                    .map(|(c, m)| {
                        format!(
                            "(0x{c:04x}, [0x{:04x}, 0x{:04x}, 0x{:04x}])",
                            m[0], m[1], m[2]
                        )
                    })
                    .collect();
                out.push_str(&format!("    {},\n", items.join(", ")));
            }
            out.push_str("];\n");
        }
        out
    }

    #[test]
    fn every_character_as_the_standard_library() {
        let (mut ours, mut std) = (String::new(), String::new());
        for c in (0..=0x10FFFF_u32).filter_map(char::from_u32) {
            for upper in [false, true] {
                ours.clear();
                std.clear();
                if upper {
                    push_upper(c, &mut ours);
                    std.extend(c.to_uppercase());
                } else {
                    push_lower(c, &mut ours);
                    std.extend(c.to_lowercase());
                }
                assert_eq!(ours, std, "{c:?} (U+{:04X}), upper: {upper}", u32::from(c));
            }
        }
    }

    #[test]
    fn the_tables_are_the_standard_librarys() {
        let source = include_str!("case.rs");
        let generated = tables_source();
        assert!(
            source.contains(&generated),
            "the case tables differ from this Rust's Unicode: replace them with\n{generated}"
        );
    }
}
