package io.seckill.schemas.events;

import java.util.regex.Pattern;

/**
 * What a buyer's id looks like everywhere it travels (tokens, the gateway's header, events, Redis
 * keys, MySQL): 1-64 characters of {@code A-Z a-z 0-9 . _ : @ -}, as the events' JSON Schemas say.
 */
public final class UserIdFormat {

    public static final String DESCRIPTION = "1-64 characters of A-Z a-z 0-9 . _ : @ -";
    private static final Pattern USER_ID = Pattern.compile("[A-Za-z0-9._:@-]{1,64}");

    private UserIdFormat() {
    }

    public static boolean isValid(String userId) {
        return userId != null && USER_ID.matcher(userId).matches();
    }
}
