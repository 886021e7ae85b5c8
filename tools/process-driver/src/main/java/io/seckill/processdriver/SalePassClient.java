package io.seckill.processdriver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seckill.schemas.pass.ProofOfWork;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * Gets a sale pass as a buyer's browser does: asks the ingress for a proof-of-work challenge, solves it, and trades
 * the solution for a pass ({@code POST .../pass-challenges}, then {@code POST .../passes}).
 */
public final class SalePassClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * The JDK's HTTP/1.1 client can lose a reply on a reused keep-alive connection when the server answers fast
     * (JDK-8357639: "header parser received no bytes"); a pass is then got again from a fresh challenge.
     */
    private static final int ATTEMPTS = 3;

    private final HttpClient http;
    private final URI buyers;

    /** @param buyers the ingress's buyers' address */
    public SalePassClient(HttpClient http, URI buyers) {
        this.http = http;
        this.buyers = buyers;
    }

    /**
     * A pass for the buyer {@code identity} names (its headers: a bearer token, or a gateway's) to buy SKU {@code
     * skuId}.
     * @throws IllegalStateException with the ingress's answer when either step is refused
     */
    public String passFor(long skuId, Map<String, String> identity) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return passOnce(skuId, identity);
            } catch (IOException lost) {
                if (attempt == ATTEMPTS) {
                    throw lost;
                }
            }
        }
    }

    private String passOnce(long skuId, Map<String, String> identity) throws IOException, InterruptedException {
        JsonNode challenge = post("/api/v1/skus/" + skuId + "/pass-challenges", identity, "{}");
        String puzzle = challenge.path("challenge").asText();
        ObjectNode answer = JSON.createObjectNode();
        answer.put("challenge", puzzle);
        answer.put("solution", ProofOfWork.solve(puzzle, challenge.path("difficulty").asInt()));
        return post("/api/v1/skus/" + skuId + "/passes", identity, JSON.writeValueAsString(answer))
                .path("pass")
                .asText();
    }

    private JsonNode post(String path, Map<String, String> identity, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(buyers.resolve(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        identity.forEach(request::header);
        HttpResponse<String> reply = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (reply.statusCode() != 201) {
            throw new IllegalStateException("POST " + path + " answered " + reply.statusCode() + ": " + reply.body());
        }
        return JSON.readTree(reply.body());
    }
}
