package io.seckill.benchmark;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * One kind of request under load: how to build the n-th request and which statuses count as its answers; any other
 * status is unexpected, counted apart and never as speed.
 */
record Scenario(String name, Set<Integer> expectedStatuses, LongFunction<byte[]> request) {

    Scenario(String name, int expectedStatus, LongFunction<byte[]> request) {
        this(name, Set.of(expectedStatus), request);
    }

    static byte[] get(String host, String path) {
        return ("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] getAuthorized(String host, String path, String authorization) {
        return ("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + authorization + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] postJson(String host, String path, String authorization, String body) {
        byte[] content = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + authorization
                + "\r\nContent-Type: application/json\r\nContent-Length: " + content.length + "\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] request = new byte[headBytes.length + content.length];
        System.arraycopy(headBytes, 0, request, 0, headBytes.length);
        System.arraycopy(content, 0, request, headBytes.length, content.length);
        return request;
    }
}
