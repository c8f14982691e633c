package io.dpone.backfill.core.campaign;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The daily window in which a campaign may swap its shadow in (issue 28): from {@code from} (inclusive) to
 * {@code to} (exclusive), local times in a time zone, spanning midnight when {@code to} is earlier. Local times are
 * read in the zone on each day, so the window keeps its wall-clock hours across daylight-saving changes (a start in
 * a skipped hour begins when the clock resumes).
 */
public record SwapWindow(LocalTime from, LocalTime to, ZoneId zone) {
    static final Pattern TIME = Pattern.compile("^([01][0-9]|2[0-3]):[0-5][0-9]$");
    private static final DateTimeFormatter SHOWN = DateTimeFormatter.ofPattern("HH:mm");

    public SwapWindow {
        if (from.equals(to)) {
            throw new IllegalArgumentException("a window from " + from + " to " + to + " is empty");
        }
    }

    /** The spec's window; empty when it has none. Assumes a validated spec. */
    public static Optional<SwapWindow> of(PublicationWindowSpec spec) {
        if (spec == null) {
            return Optional.empty();
        }
        return Optional.of(new SwapWindow(LocalTime.parse(spec.getFrom()), LocalTime.parse(spec.getTo()),
                ZoneId.of(spec.getTimeZone() == null ? "UTC" : spec.getTimeZone())));
    }

    /** What is wrong with {@code text} as a window time; empty when it is one. */
    public static Optional<String> timeProblem(String text) {
        return text != null && TIME.matcher(text).matches() ? Optional.empty()
                : Optional.of("must be HH:MM in 24-hour time (00:00 to 23:59), got '" + text + "'");
    }

    /** What is wrong with {@code text} as a time zone; empty when it is one. */
    public static Optional<String> zoneProblem(String text) {
        try {
            ZoneId.of(text);
            return Optional.empty();
        } catch (DateTimeException e) {
            return Optional.of("must be an IANA time zone such as Europe/Berlin or UTC, got '" + text + "'");
        }
    }

    public boolean contains(Instant instant) {
        LocalTime t = instant.atZone(zone).toLocalTime();
        return from.isBefore(to) ? !t.isBefore(from) && t.isBefore(to) : !t.isBefore(from) || t.isBefore(to);
    }

    /** The first opening at or after {@code instant}: {@code instant} itself when the window is open. */
    public ZonedDateTime opensAt(Instant instant) {
        ZonedDateTime now = instant.atZone(zone);
        if (contains(instant)) {
            return now;
        }
        ZonedDateTime today = now.toLocalDate().atTime(from).atZone(zone);
        return today.isAfter(now) ? today : now.toLocalDate().plusDays(1).atTime(from).atZone(zone);
    }

    /** {@code 01:00-05:00 Europe/Berlin}. */
    public String describe() {
        return from.format(SHOWN) + "-" + to.format(SHOWN) + " " + zone.getId();
    }
}
