package vulnscan

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRetryAfter429ResendsTheBodyWithCredentials(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("X-API-Key") != "key_1" || string(body) == "" {
			t.Errorf("attempt %d: key %q body %q", calls.Load(), r.Header.Get("X-API-Key"), body)
		}
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"detail":"slow down","error_code":"RATE_LIMIT_EXCEEDED"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"id":"scan_1"}`))
	}))
	defer srv.Close()
	c, err := New(srv.URL, WithAPIKey("key_1"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := c.CreateScanWithBodyWithResponse(context.Background(), "application/json", strings.NewReader(`{"target":"10.0.0.1","authorized":true}`))
	if err := Check(res, err); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 2 || time.Since(start) < 900*time.Millisecond {
		t.Fatalf("calls %d after %s", calls.Load(), time.Since(start))
	}
}

func TestErrorsCarryTheAPIShape(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "req_1")
		w.WriteHeader(http.StatusUnprocessableEntity)
		_, _ = w.Write([]byte(`{"detail":"target is required","error_code":"VALIDATION_ERROR","field":"target","errors":[{"field":"target","detail":"target is required","error_code":"VALIDATION_ERROR"},{"field":"ports","detail":"bad","error_code":"VALIDATION_ERROR"}]}`))
	}))
	defer srv.Close()
	c, _ := New(srv.URL, WithAPIKey("k"))
	res, err := c.GetScanWithResponse(context.Background(), "scan_1")
	var apiErr *APIError
	if !errors.As(Check(res, err), &apiErr) {
		t.Fatalf("no APIError: %v", err)
	}
	if apiErr.Status != 422 || apiErr.ErrorCode != "VALIDATION_ERROR" || apiErr.Field != "target" || len(apiErr.Errors) != 2 || apiErr.RequestID != "req_1" {
		t.Fatalf("%+v", apiErr)
	}
}

func TestSignInThenRefreshBeforeExpiry(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.URL.Path+" "+r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1/auth/token":
			_ = r.ParseForm()
			if r.Form.Get("username") != "a@example.test" || r.Form.Get("mfa_code") != "123456" {
				t.Errorf("form %v", r.Form)
			}
			_, _ = w.Write([]byte(`{"access_token":"t1","token_type":"bearer","expires_in":30}`))
		case "/api/v1/auth/refresh":
			_, _ = w.Write([]byte(`{"access_token":"t2","token_type":"bearer","expires_in":3600}`))
		default:
			_, _ = w.Write([]byte(`{}`))
		}
	}))
	defer srv.Close()
	c, err := SignIn(context.Background(), srv.URL, "a@example.test", "pw", "123456")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = c.GetScanQuotaWithResponse(context.Background())
	want := []string{"/api/v1/auth/token ", "/api/v1/auth/refresh Bearer t1", "/api/v1/scans/quota Bearer t2"}
	if len(seen) != 3 || seen[0] != want[0] || seen[1] != want[1] || seen[2] != want[2] {
		t.Fatalf("%q", seen)
	}
}

func TestPaginateFollowsCursorThenPages(t *testing.T) {
	cursors := []*string{strPtr("c2"), nil, nil}
	var asked []string
	i := 0
	err := Paginate(context.Background(), func(ctx context.Context, page int, cursor string) (PageInfo, error) {
		asked = append(asked, strconv.Itoa(page)+"/"+cursor)
		info := PageInfo{Page: i + 1, Pages: 3, Items: 2, NextCursor: cursors[i]}
		i++
		return info, nil
	})
	if err != nil || len(asked) != 3 || asked[0] != "1/" || asked[1] != "0/c2" || asked[2] != "3/" {
		t.Fatalf("%v %q", err, asked)
	}
}

func TestVerifyWebhookBothSchemes(t *testing.T) {
	secret, body, now := "whsec-test", []byte(`{"id":"delivery_1","event":"scan.completed","timestamp":"x","data":{}}`), time.Unix(1_800_000_000, 0)
	ts := strconv.FormatInt(now.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("delivery_1." + ts + "."))
	mac.Write(body)
	standard := http.Header{"Webhook-Id": {"delivery_1"}, "Webhook-Timestamp": {ts}, "Webhook-Signature": {"v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))}}
	if d, err := VerifyWebhook(body, standard, secret, 5*time.Minute, now); err != nil || d.ID != "delivery_1" {
		t.Fatal(err)
	}
	if _, err := VerifyWebhook(append(body, ' '), standard, secret, 5*time.Minute, now); !errors.Is(err, ErrWebhookSignature) {
		t.Fatal("changed body accepted")
	}
	if _, err := VerifyWebhook(body, standard, secret, 5*time.Minute, now.Add(10*time.Minute)); !errors.Is(err, ErrWebhookSignature) {
		t.Fatal("old timestamp accepted")
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	service := http.Header{"X-Service-Signature": {"sha256=" + hex.EncodeToString(m.Sum(nil))}}
	if _, err := VerifyWebhook(body, service, secret, 5*time.Minute, now); err != nil {
		t.Fatal(err)
	}
	if _, err := VerifyWebhook(body, service, "other", 5*time.Minute, now); !errors.Is(err, ErrWebhookSignature) {
		t.Fatal("other secret accepted")
	}
}

func strPtr(s string) *string { return &s }
