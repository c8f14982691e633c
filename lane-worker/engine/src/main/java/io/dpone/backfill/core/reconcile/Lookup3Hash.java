package io.dpone.backfill.core.reconcile;

/**
 * Bob Jenkins' lookup3 hash in its 64-bit form ({@code hashlittle2}'s mixing, the two final words as one 64-bit
 * value, {@code b} high and {@code c} low), byte for byte as the key digests' source computes it on a little-endian
 * machine, so the target's keys can be digested in Java and compared with the source's sums (issue 38, ADR 0056).
 * The lowest byte of {@code c} is reserved for the length: a tail of nine to eleven bytes starts at its second byte.
 */
public final class Lookup3Hash {
    private static final int GOLDEN = 0x9e3779b9;
    /** The variant's own constant, added to the length in the initial state. */
    private static final int INITIAL = 3923095;

    private Lookup3Hash() {
    }

    /** The 64-bit hash of {@code bytes} with {@code seed} (0 for the digests), as a signed long. */
    public static long hash64(byte[] bytes, long seed) {
        int len = bytes.length;
        int a = GOLDEN + len + INITIAL;
        int b = a;
        int c = a;
        if (seed != 0) {
            a += (int) (seed >>> 32);
            b += (int) seed;
            int[] m = mix(a, b, c);
            a = m[0];
            b = m[1];
            c = m[2];
        }
        int k = 0;
        while (len >= 12) {
            a += word(bytes, k);
            b += word(bytes, k + 4);
            c += word(bytes, k + 8);
            int[] m = mix(a, b, c);
            a = m[0];
            b = m[1];
            c = m[2];
            k += 12;
            len -= 12;
        }
        // The tail, falling through as the original's switch does.
        switch (len) {
            case 11: c += (bytes[k + 10] & 0xff) << 24;
            case 10: c += (bytes[k + 9] & 0xff) << 16;
            case 9: c += (bytes[k + 8] & 0xff) << 8;
            case 8: b += (bytes[k + 7] & 0xff) << 24;
            case 7: b += (bytes[k + 6] & 0xff) << 16;
            case 6: b += (bytes[k + 5] & 0xff) << 8;
            case 5: b += bytes[k + 4] & 0xff;
            case 4: a += (bytes[k + 3] & 0xff) << 24;
            case 3: a += (bytes[k + 2] & 0xff) << 16;
            case 2: a += (bytes[k + 1] & 0xff) << 8;
            case 1: a += bytes[k] & 0xff;
            default:
                break;
        }
        // final(a, b, c)
        c ^= b;
        c -= Integer.rotateLeft(b, 14);
        a ^= c;
        a -= Integer.rotateLeft(c, 11);
        b ^= a;
        b -= Integer.rotateLeft(a, 25);
        c ^= b;
        c -= Integer.rotateLeft(b, 16);
        a ^= c;
        a -= Integer.rotateLeft(c, 4);
        b ^= a;
        b -= Integer.rotateLeft(a, 14);
        c ^= b;
        c -= Integer.rotateLeft(b, 24);
        return ((long) b << 32) | (c & 0xffffffffL);
    }

    private static int word(byte[] bytes, int at) {
        return (bytes[at] & 0xff) | (bytes[at + 1] & 0xff) << 8 | (bytes[at + 2] & 0xff) << 16 | (bytes[at + 3] & 0xff) << 24;
    }

    private static int[] mix(int a, int b, int c) {
        a -= c;
        a ^= Integer.rotateLeft(c, 4);
        c += b;
        b -= a;
        b ^= Integer.rotateLeft(a, 6);
        a += c;
        c -= b;
        c ^= Integer.rotateLeft(b, 8);
        b += a;
        a -= c;
        a ^= Integer.rotateLeft(c, 16);
        c += b;
        b -= a;
        b ^= Integer.rotateLeft(a, 19);
        a += c;
        c -= b;
        c ^= Integer.rotateLeft(b, 4);
        b += a;
        return new int[] {a, b, c};
    }
}
