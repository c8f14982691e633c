package io.dpone.backfill.core.plan;

import java.math.BigInteger;
import java.util.UUID;

/**
 * UUIDs as unsigned 128-bit integers. PostgreSQL orders uuid values bytewise (memcmp), which is exactly the order
 * of this big-endian unsigned number, so ranges cut here mean the same on the server.
 */
public final class UuidKeys {
    public static final BigInteger SPACE = BigInteger.ONE.shiftLeft(128);
    private static final BigInteger MASK64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private UuidKeys() {
    }

    public static String toText(BigInteger value) {
        if (value.signum() < 0 || value.compareTo(SPACE) >= 0) {
            throw new IllegalArgumentException("not a 128-bit unsigned value: " + value);
        }
        return new UUID(value.shiftRight(64).longValue(), value.and(MASK64).longValue()).toString();
    }

    public static BigInteger fromText(String text) {
        UUID uuid = UUID.fromString(text);
        return unsigned(uuid.getMostSignificantBits()).shiftLeft(64).or(unsigned(uuid.getLeastSignificantBits()));
    }

    /** The uuid with these halves (as {@link java.util.UUID} holds them) as its unsigned 128-bit number. */
    public static BigInteger fromBits(long mostSignificant, long leastSignificant) {
        return unsigned(mostSignificant).shiftLeft(64).or(unsigned(leastSignificant));
    }

    private static BigInteger unsigned(long bits) {
        return new BigInteger(Long.toUnsignedString(bits));
    }
}
