package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** What the HTTP server refuses before any route sees it is problem+json as well. */
class MalformedHttpIT {

    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void aControlCharacterInAHeader() throws IOException {
        assertProblem(send("GET /health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u001bb\r\n\r\n"), 400, "MALFORMED_HTTP");
    }

    @Test
    void anOverlongUri() throws IOException {
        assertProblem(send("GET /health?" + "a".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"), 414, "URI_TOO_LONG");
    }

    @Test
    void overlongHeaders() throws IOException {
        assertProblem(
                send("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n"),
                431,
                "HEADERS_TOO_LARGE");
    }

    private String send(String request) throws IOException {
        try (Socket socket = new Socket("localhost", fixture.ingress.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void assertProblem(String response, int status, String code) throws IOException {
        assertThat(response).startsWith("HTTP/1.1 " + status);
        assertThat(response.toLowerCase(Locale.ROOT)).contains("content-type: application/problem+json");
        JsonNode body = new ObjectMapper().readTree(response.substring(response.indexOf("\r\n\r\n") + 4));
        assertThat(body.path("code").asText()).isEqualTo(code);
        assertThat(body.path("status").asInt()).isEqualTo(status);
    }
}
