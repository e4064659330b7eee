// Generated once by the coders engineer from independent decoders: pypng 0.20 for PngSuite
// (RGBA8, 16-bit samples rounded as round(v / 257)), Pillow 13 for the SDWebImage images
// (APNG frames decoded one by one by Pillow and composited per the APNG specification; GIF
// frames composited by Pillow, JPEGs turned upright by their orientation, and converted to sRGB
// from an embedded ICC profile with Pillow's ImageCms, issue 31). Each hash is the FNV-1a 64 of
// the RGBA8 pixels with the color of fully transparent pixels zeroed. No test image is copied.

struct Reference: Sendable {
    let width: Int
    let height: Int
    let frameHashes: [UInt64]
}

enum ConformanceReferences {
    /// PngSuite (../shared/testdata/pngsuite), decoded by pypng.
    static let pngSuite: [String: Reference] = [
        "basn0g01.png": Reference(width: 32, height: 32, frameHashes: [0xf76ab9c2cc275b5d]),
        "basn0g02.png": Reference(width: 32, height: 32, frameHashes: [0x100bbcf53d1fd325]),
        "basn0g04.png": Reference(width: 32, height: 32, frameHashes: [0xca83a263da76ab25]),
        "basn0g08.png": Reference(width: 32, height: 32, frameHashes: [0x11ed8979ce4d7b4d]),
        "basn0g16.png": Reference(width: 32, height: 32, frameHashes: [0x785e25109704327c]),
        "basn2c08.png": Reference(width: 32, height: 32, frameHashes: [0x6d0a594462868f25]),
        "basn2c16.png": Reference(width: 32, height: 32, frameHashes: [0x14fba4b7a7c90773]),
        "basn3p01.png": Reference(width: 32, height: 32, frameHashes: [0x83e9607069333725]),
        "basn3p02.png": Reference(width: 32, height: 32, frameHashes: [0xe1b97808c557cb25]),
        "basn3p04.png": Reference(width: 32, height: 32, frameHashes: [0x817fff880b5d72c5]),
        "basn3p08.png": Reference(width: 32, height: 32, frameHashes: [0x3733a8885d80db25]),
        "basn4a08.png": Reference(width: 32, height: 32, frameHashes: [0x8b810a2c0c7ded2e]),
        "basn4a16.png": Reference(width: 32, height: 32, frameHashes: [0xd1500a4e314d3405]),
        "basn6a08.png": Reference(width: 32, height: 32, frameHashes: [0x4a3d561b8254af79]),
        "basn6a16.png": Reference(width: 32, height: 32, frameHashes: [0xa4aa7d8efc693952]),
        "ftbbn0g01.png": Reference(width: 32, height: 32, frameHashes: [0x375832c5d544f7a1]),
        "ftbbn0g02.png": Reference(width: 32, height: 32, frameHashes: [0xa515a0f40cc67686]),
        "ftbbn0g04.png": Reference(width: 32, height: 32, frameHashes: [0xb7510d89a3abc474]),
        "ftbbn2c16.png": Reference(width: 32, height: 32, frameHashes: [0x1d4bfd9ee78d00ad]),
        "ftbbn3p08.png": Reference(width: 32, height: 32, frameHashes: [0x6619db5c58d822f7]),
        "ftbgn2c16.png": Reference(width: 32, height: 32, frameHashes: [0x1d4bfd9ee78d00ad]),
        "ftbgn3p08.png": Reference(width: 32, height: 32, frameHashes: [0x6619db5c58d822f7]),
        "ftbrn2c08.png": Reference(width: 32, height: 32, frameHashes: [0x1d4bfd9ee78d00ad]),
        "ftbwn0g16.png": Reference(width: 32, height: 32, frameHashes: [0xfd88bef2309adfdc]),
        "ftbwn3p08.png": Reference(width: 32, height: 32, frameHashes: [0x6619db5c58d822f7]),
        "ftbyn3p08.png": Reference(width: 32, height: 32, frameHashes: [0x6619db5c58d822f7]),
        "ftp0n0g08.png": Reference(width: 32, height: 32, frameHashes: [0x162fa510b7ff822e]),
        "ftp0n2c08.png": Reference(width: 32, height: 32, frameHashes: [0xcca7d2a511030be9]),
        "ftp0n3p08.png": Reference(width: 32, height: 32, frameHashes: [0xfd1fa2a0c996ef7f]),
        "ftp1n3p08.png": Reference(width: 32, height: 32, frameHashes: [0x6619db5c58d822f7]),
        "ibasn0g01.png": Reference(width: 32, height: 32, frameHashes: [0xf76ab9c2cc275b5d]),
        "ibasn0g02.png": Reference(width: 32, height: 32, frameHashes: [0x100bbcf53d1fd325]),
        "ibasn0g04.png": Reference(width: 32, height: 32, frameHashes: [0xca83a263da76ab25]),
        "ibasn0g08.png": Reference(width: 32, height: 32, frameHashes: [0x11ed8979ce4d7b4d]),
        "ibasn0g16.png": Reference(width: 32, height: 32, frameHashes: [0x785e25109704327c]),
        "ibasn2c08.png": Reference(width: 32, height: 32, frameHashes: [0x6d0a594462868f25]),
        "ibasn2c16.png": Reference(width: 32, height: 32, frameHashes: [0x14fba4b7a7c90773]),
        "ibasn3p01.png": Reference(width: 32, height: 32, frameHashes: [0x83e9607069333725]),
        "ibasn3p02.png": Reference(width: 32, height: 32, frameHashes: [0xe1b97808c557cb25]),
        "ibasn3p04.png": Reference(width: 32, height: 32, frameHashes: [0x817fff880b5d72c5]),
        "ibasn3p08.png": Reference(width: 32, height: 32, frameHashes: [0x3733a8885d80db25]),
        "ibasn4a08.png": Reference(width: 32, height: 32, frameHashes: [0x8b810a2c0c7ded2e]),
        "ibasn4a16.png": Reference(width: 32, height: 32, frameHashes: [0xd1500a4e314d3405]),
        "ibasn6a08.png": Reference(width: 32, height: 32, frameHashes: [0x4a3d561b8254af79]),
        "ibasn6a16.png": Reference(width: 32, height: 32, frameHashes: [0xa4aa7d8efc693952]),
        "iftbbn0g01.png": Reference(width: 32, height: 32, frameHashes: [0x375832c5d544f7a1]),
        "iftbbn0g02.png": Reference(width: 32, height: 32, frameHashes: [0xa515a0f40cc67686]),
        "iftbbn0g04.png": Reference(width: 32, height: 32, frameHashes: [0xb7510d89a3abc474]),
        "iftbbn2c16.png": Reference(width: 32, height: 32, frameHashes: [0x1d4bfd9ee78d00ad]),
        "iftbbn3p08.png": Reference(width: 32, height: 32, frameHashes: [0x6619db5c58d822f7]),
        "iftbgn2c16.png": Reference(width: 32, height: 32, frameHashes: [0x1d4bfd9ee78d00ad]),
        "iftbgn3p08.png": Reference(width: 32, height: 32, frameHashes: [0x6619db5c58d822f7]),
        "iftbrn2c08.png": Reference(width: 32, height: 32, frameHashes: [0x1d4bfd9ee78d00ad]),
        "iftbwn0g16.png": Reference(width: 32, height: 32, frameHashes: [0xfd88bef2309adfdc]),
        "iftbwn3p08.png": Reference(width: 32, height: 32, frameHashes: [0x6619db5c58d822f7]),
        "iftbyn3p08.png": Reference(width: 32, height: 32, frameHashes: [0x6619db5c58d822f7]),
        "iftp0n0g08.png": Reference(width: 32, height: 32, frameHashes: [0x162fa510b7ff822e]),
        "iftp0n2c08.png": Reference(width: 32, height: 32, frameHashes: [0xcca7d2a511030be9]),
        "iftp0n3p08.png": Reference(width: 32, height: 32, frameHashes: [0xfd1fa2a0c996ef7f]),
        "iftp1n3p08.png": Reference(width: 32, height: 32, frameHashes: [0x6619db5c58d822f7]),
    ]

    /// SDWebImage test images (../shared/testdata/sdwebimage), decoded by Pillow.
    static let sdWebImage: [String: Reference] = [
        "1@2x.gif": Reference(width: 400, height: 400, frameHashes: [0x0ce4f4cc450a6d8a, 0x03e0cded76a6369a, 0x079dfeedaad411a1, 0xe5fb72d0c45595d9, 0xd832e452070c2170, 0x39c94635e9d75ac1, 0x521d085ef6691d44, 0x3427019baae14a5b, 0xbe3c5d343abbbee9, 0xe2a2d054dac34016, 0x3e72d059daf8196e, 0xac79509cf9b4b6be, 0x72e90a4989ab2f90, 0x0d2e63376bf69af2, 0xce7fc53faa01a966, 0xbd02bbb2e897c111, 0x7929f6a3e411bdc5, 0x141a99f22a1303bf, 0x4278a53f18edd355, 0xab94e9ce9e60836b, 0x47a8e2206616c95a, 0x1f100c4626830c1b, 0x3a65c739d959afa3, 0xb262cdb3289839fd, 0x103257b98f70a7ce, 0x756aa616d22f61d8, 0x99bd063f3c1bbbda, 0x462a0ebcafd16486, 0x76b3edd1d1f2c6d5, 0x8ce006dec4906e9b, 0xb28886b9cd7009dd, 0x360bf79a6f60e8a3, 0x4efbfe412f6b2429, 0xbd2c6335709e0515, 0x4b8c86a3fb6c0135, 0x55e27c549c368db2, 0xde5ef2265425a068, 0xd32cf0d45a69393b, 0x055e4bd3bacd6378, 0x2f085a8c28383c52, 0x08d5ec45d5a0799e, 0x48288d0448954efd, 0x0523c4be491b6e37, 0xf32924d65eff1b31]),
        "IndexedPNG.png": Reference(width: 687, height: 123, frameHashes: [0x97fcb56e001353c2]),
        "MonochromeTestImage.jpg": Reference(width: 165, height: 121, frameHashes: [0x807a1c85a8c63735]),
        "RGBA16PNG.png": Reference(width: 126, height: 135, frameHashes: [0x84554d7b64cffa27]),
        "TestEXIF.png": Reference(width: 150, height: 200, frameHashes: [0x6baf4e4a32768779]),
        "TestHDR.jpeg": Reference(width: 1662, height: 2493, frameHashes: [0x003fe6bd986443ee]),
        "TestICCProfile.jpg": Reference(width: 400, height: 300, frameHashes: [0x4e43c8567b37d725]),  // Pillow ImageCms to sRGB (its profile applied; libvips icc_transform gives the same pixels)
        "TestImage.gif": Reference(width: 50, height: 50, frameHashes: [0x288b5b3df2dd3c92, 0x455c0a8b48e13ee4, 0xc56ae907193d2261, 0xaa68fe4f78b0dd32, 0x36d5eb6790e679fd]),
        "TestImage.jpg": Reference(width: 80, height: 60, frameHashes: [0x8ba70e9d9ddfbbc9]),
        "TestImage.png": Reference(width: 300, height: 300, frameHashes: [0xd82710241c41d9eb]),
        "TestImageAnimated.apng": Reference(width: 320, height: 240, frameHashes: [0x425adb527371fdad, 0x6e9bea7407c7ae4b, 0x8079453c4b01664d, 0x2a202ba803c3b912, 0xf9e3922bd03e3fc1, 0xfc1ecbf3a79f4794, 0x8e11e95638c64a67, 0x4b5f69d595384052, 0xc4d054489ac3e6ad, 0x90f9072725567655, 0x3b2a7d1565c7667f, 0x474bd36d2cd172f6, 0x1a283307c8f122bd, 0x60457ffcf3c963bc, 0xd77bf8ef9f6d3817, 0xdef2f47695a0a520, 0xac8708d5adc9681c, 0xd8a14da46ea63d89, 0xf9a80c96a26ee5dc, 0xa1103425077cdd28, 0x3b98e0a5f6b34b6e, 0xf412d9b784429fda, 0x29d9f6a6a1bc0eb2, 0x928dc2e3b0faa6f7, 0x0fc870a30d8f334b, 0xc7d6ad7b5a5dc102, 0x75f2ccce26daf6f5, 0x1c249150ccac8ef9, 0xe81b4c2f2ed23f01, 0xc2d93f9bd2675617, 0x5cf370b5e3b1f542, 0xf73ec71d1a5c01ae, 0xfa2f6c0eac853e97, 0x93b09c439a15da12, 0x169ee3556049394d, 0x27329684eca890e4, 0xfa67d1a5097ab7b5, 0x1470683d3e9d7459, 0x174070bb99071ac1, 0x31be8a097eef9176, 0x67aed58ea869a01e, 0x897ade0d20266866, 0x4f35e1ed8891424d, 0xc87755d916d95ed2, 0x9080f9e7baf2e99f, 0x1657bce2211e59a6, 0x3e4832c4cf77bc0e, 0x20a568b76de7fcb9, 0xa681fec8e68efdd1, 0xf07d08c2a7ea30f7, 0x3151cc5867b9bd4a, 0xb27d4a9981e2c8f3, 0x556e92edbb8c5724, 0xad1ccc1680be97e0, 0x17376adb2327e1e0, 0x9e32e0fa8707e80e, 0x0b6b6ff3c00b0fe8, 0x2b8ee1aa2c354ce6, 0xe3a7e4c52e157880, 0x3bc584c5b680b3f1, 0x57df91599087ba8c, 0xe3d93fb150c77299, 0xa703ea38a59b2bfd, 0x9d20a9f64e3da0f9, 0xdaec263563640920, 0x8fb8ccd9246e4ac9, 0xbb822538e671c466, 0xd8de880a58d3dd78, 0x1b92589aa7d6f305, 0xe839ad38642a809a, 0x209ecaa379c1b18f, 0xb12a6880c3cb5b6d, 0x1158d749b02e6185, 0xe3005a3896b39656, 0x61be780df843ed77, 0x590e3d474a5bb168, 0x8c6f3e694ec1da79, 0x21cc17cee785ae63, 0xa07a4a10ac9f8f00, 0xa9976690ab9f5199, 0xa3426e465b8aa8c2, 0x1bf81f1f51d50147, 0x95f68bde0e0998e6, 0xd5ee1aff45fe6581, 0x9bbd480c36d5d63e, 0x949006ea4fa55075, 0x1104e11ba2006d14, 0xcaae6db63c15e6dd, 0xb732b7af09e27a40, 0x11111b4125f1b5d1, 0x53f7b2b311355ac9, 0xe22f7cd38b470e64, 0xe77e431518384b21, 0x7e5387edd976f9e0, 0xb027e1cf195ced8a, 0xf072f552a727242d, 0x0b433ff225739c8d, 0xb8931dd355dafb6c, 0x76c81a2ac43358fa, 0x7f2047eee323e075, 0xa23b933ea74f9fc4]),
        "TestImageLarge.jpg": Reference(width: 5250, height: 3450, frameHashes: [0xc18ffa3b947a32df]),
        "TestImageLarge.png": Reference(width: 1275, height: 720, frameHashes: [0x433dff77d65b9ccf, 0x73dfd8814d1c48c0, 0xc0f2cfa16f9a47b6, 0xc40dfd29748c293b]),
        "TestJFIF.jpg": Reference(width: 4032, height: 3024, frameHashes: [0xba45458373243487]),  // Display P3 profile applied (Pillow ImageCms, then upright)
        "TestLoopCount.gif": Reference(width: 72, height: 48, frameHashes: [0xe4bdd2dfeecfb566, 0x3142dcd5c61cfa26]),
    ]
}
