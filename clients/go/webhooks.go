package vulnscan

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ErrWebhookSignature is returned when a delivery's signature does not hold.
var ErrWebhookSignature = errors.New("vulnscan: webhook signature does not hold")

// WebhookDelivery is a verified delivery's body.
type WebhookDelivery struct {
	ID        string          `json:"id"`
	Event     string          `json:"event"`
	Timestamp string          `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

// VerifyWebhook checks a delivery before its body is parsed, and returns the parsed body. With
// the Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature: v1,<base64>
// over "<id>.<timestamp>.<body>", keyed by the secret's UTF-8 bytes) that signature is checked
// and a timestamp more than tolerance away is refused (a replay); otherwise
// X-Service-Signature: sha256=<hex HMAC-SHA256 of the body>. Comparisons are constant-time.
// Pass the raw body bytes exactly as received.
func VerifyWebhook(body []byte, header http.Header, secret string, tolerance time.Duration, now time.Time) (*WebhookDelivery, error) {
	id, ts, sig := header.Get("Webhook-Id"), header.Get("Webhook-Timestamp"), header.Get("Webhook-Signature")
	if id != "" && ts != "" && sig != "" {
		seconds, err := strconv.ParseInt(ts, 10, 64)
		if err != nil || math.Abs(float64(now.Unix()-seconds)) > tolerance.Seconds() {
			return nil, errors.Join(ErrWebhookSignature, errors.New("webhook-timestamp is too old or too new"))
		}
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write([]byte(id + "." + ts + "."))
		mac.Write(body)
		expected := mac.Sum(nil)
		ok := false
		// Several signatures may be sent (secret rotation), space-separated.
		for _, s := range strings.Split(sig, " ") {
			if got, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, "v1,")); err == nil && strings.HasPrefix(s, "v1,") && hmac.Equal(got, expected) {
				ok = true
			}
		}
		if !ok {
			return nil, ErrWebhookSignature
		}
	} else {
		service := header.Get("X-Service-Signature")
		got, err := hex.DecodeString(strings.TrimPrefix(service, "sha256="))
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write(body)
		if !strings.HasPrefix(service, "sha256=") || err != nil || !hmac.Equal(got, mac.Sum(nil)) {
			return nil, ErrWebhookSignature
		}
	}
	var d WebhookDelivery
	if err := json.Unmarshal(body, &d); err != nil {
		return nil, err
	}
	return &d, nil
}
