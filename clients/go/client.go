package vulnscan

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
)

// refreshMargin: a token is refreshed this long before it expires.
const refreshMargin = time.Minute

// APIError is an answer outside 2xx, in the API's error shape.
type APIError struct {
	Status    int
	ErrorCode string
	Detail    string
	Field     string
	// Errors lists every field error of a 422 VALIDATION_ERROR at once.
	Errors    []FieldError
	RequestID string
}

// FieldError is one entry of APIError.Errors.
type FieldError struct {
	Field     string `json:"field"`
	Detail    string `json:"detail"`
	ErrorCode string `json:"error_code"`
}

func (e *APIError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%d %s: %s (%s)", e.Status, e.ErrorCode, e.Detail, e.Field)
	}
	return fmt.Sprintf("%d %s: %s", e.Status, e.ErrorCode, e.Detail)
}

// Check turns a generated call's result into an error: the call's own error, an *APIError for
// an answer outside 2xx, or nil. res is the call's *XxxResponse (its HTTPResponse and Body).
//
//	res, err := c.GetScanWithResponse(ctx, id)
//	if err := vulnscan.Check(res, err); err != nil { … }
func Check(res any, err error) error {
	if err != nil {
		return err
	}
	v := reflect.ValueOf(res)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("vulnscan: Check needs a generated *Response, got %T", res)
	}
	httpRes, _ := v.Elem().FieldByName("HTTPResponse").Interface().(*http.Response)
	body, _ := v.Elem().FieldByName("Body").Interface().([]byte)
	if httpRes == nil {
		return fmt.Errorf("vulnscan: %T has no HTTP response", res)
	}
	return CheckHTTP(httpRes, body)
}

// CheckHTTP is Check for a plain HTTP answer and its body.
func CheckHTTP(res *http.Response, body []byte) error {
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		return nil
	}
	var shape struct {
		Detail    string       `json:"detail"`
		ErrorCode string       `json:"error_code"`
		Field     string       `json:"field"`
		Errors    []FieldError `json:"errors"`
	}
	_ = json.Unmarshal(body, &shape)
	if shape.ErrorCode == "" {
		shape.ErrorCode = fmt.Sprintf("HTTP_%d", res.StatusCode)
	}
	return &APIError{Status: res.StatusCode, ErrorCode: shape.ErrorCode, Detail: shape.Detail, Field: shape.Field, Errors: shape.Errors, RequestID: res.Header.Get("X-Request-Id")}
}

// API is the generated ClientWithResponses (one method per operation, named by its
// operationId) whose requests carry the credentials, refresh a token before it expires and are
// sent again after a 429 or 503 once their Retry-After has passed.
type API struct {
	*ClientWithResponses
	creds   *credentials
	baseURL string
	http    *http.Client
}

// Option configures New and SignIn.
type Option func(*settings)

type settings struct {
	apiKey      string
	accessToken string
	maxRetries  int
	maxWait     time.Duration
	transport   http.RoundTripper
	timeout     time.Duration
}

// WithAPIKey authenticates every request with an API key (X-API-Key).
func WithAPIKey(key string) Option { return func(s *settings) { s.apiKey = key } }

// WithAccessToken authenticates with a token obtained elsewhere (it is not refreshed by itself).
func WithAccessToken(token string) Option { return func(s *settings) { s.accessToken = token } }

// WithRetries sets the attempts after a 429 or 503 (default 3) and the longest Retry-After
// honoured (default one minute; a longer one returns the answer instead).
func WithRetries(max int, longest time.Duration) Option {
	return func(s *settings) { s.maxRetries, s.maxWait = max, longest }
}

// WithTransport sets the HTTP transport under the client (e.g. for a custom CA).
func WithTransport(t http.RoundTripper) Option { return func(s *settings) { s.transport = t } }

// New returns a client of the API at baseURL (its origin, e.g. https://vulnscan.example.com).
func New(baseURL string, opts ...Option) (*API, error) {
	s := settings{maxRetries: 3, maxWait: time.Minute, transport: http.DefaultTransport, timeout: 30 * time.Second}
	for _, o := range opts {
		o(&s)
	}
	c := &API{baseURL: strings.TrimRight(baseURL, "/"), creds: &credentials{apiKey: s.apiKey, token: s.accessToken}}
	if s.accessToken != "" {
		c.creds.expiresAt = time.Now().Add(100 * 365 * 24 * time.Hour)
	}
	c.http = &http.Client{Timeout: s.timeout, Transport: &transport{base: s.transport, client: c, maxRetries: s.maxRetries, maxWait: s.maxWait}}
	gen, err := NewClientWithResponses(c.baseURL, WithHTTPClient(c.http))
	if err != nil {
		return nil, err
	}
	c.ClientWithResponses = gen
	return c, nil
}

// SignIn signs in with an email and password (mfaCode: the 6-digit code or a recovery code when
// MFA is on, else ""), and returns a client that keeps its token fresh.
func SignIn(ctx context.Context, baseURL, email, password, mfaCode string, opts ...Option) (*API, error) {
	c, err := New(baseURL, opts...)
	if err != nil {
		return nil, err
	}
	form := url.Values{"username": {email}, "password": {password}}
	if mfaCode != "" {
		form.Set("mfa_code", mfaCode)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/api/v1/auth/token", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if err := c.token(req); err != nil {
		return nil, err
	}
	return c, nil
}

// AccessToken is the current access token ("" with an API key).
func (c *API) AccessToken() string {
	c.creds.mu.Lock()
	defer c.creds.mu.Unlock()
	return c.creds.token
}

// Refresh exchanges the current token for a new one of the same session (done by itself before expiry).
func (c *API) Refresh(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/api/v1/auth/refresh", nil)
	if err != nil {
		return err
	}
	return c.token(req)
}

// token sends a token request and keeps its answer.
func (c *API) token(req *http.Request) error {
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if err := CheckHTTP(res, body); err != nil {
		return err
	}
	var answer struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return err
	}
	c.creds.mu.Lock()
	c.creds.token, c.creds.expiresAt = answer.AccessToken, time.Now().Add(time.Duration(answer.ExpiresIn)*time.Second)
	c.creds.mu.Unlock()
	return nil
}

type credentials struct {
	mu        sync.Mutex
	apiKey    string
	token     string
	expiresAt time.Time
	refresh   sync.Mutex
}

type transport struct {
	base       http.RoundTripper
	client     *API
	maxRetries int
	maxWait    time.Duration
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	creds := t.client.creds
	path := req.URL.Path
	if creds.apiKey == "" && path != "/api/v1/auth/refresh" && path != "/api/v1/auth/token" {
		creds.mu.Lock()
		due := creds.token != "" && time.Until(creds.expiresAt) < refreshMargin
		creds.mu.Unlock()
		if due {
			// One refresh at a time; a caller that waited finds the token fresh.
			creds.refresh.Lock()
			creds.mu.Lock()
			due = time.Until(creds.expiresAt) < refreshMargin
			creds.mu.Unlock()
			if due {
				if err := t.client.Refresh(req.Context()); err != nil {
					creds.refresh.Unlock()
					return nil, err
				}
			}
			creds.refresh.Unlock()
		}
	}
	for attempt := 0; ; attempt++ {
		// Each attempt sends its own copy, with a fresh body.
		r := req.Clone(req.Context())
		if req.Body != nil && req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			r.Body = body
		} else if req.Body != nil && attempt > 0 {
			return nil, fmt.Errorf("vulnscan: cannot send the body of %s %s again", req.Method, path)
		}
		creds.mu.Lock()
		if creds.apiKey != "" {
			r.Header.Set("X-API-Key", creds.apiKey)
		} else if creds.token != "" && path != "/api/v1/auth/token" {
			r.Header.Set("Authorization", "Bearer "+creds.token)
		}
		creds.mu.Unlock()
		res, err := t.base.RoundTrip(r)
		if err != nil || (res.StatusCode != http.StatusTooManyRequests && res.StatusCode != http.StatusServiceUnavailable) || attempt >= t.maxRetries {
			return res, err
		}
		wait, ok := RetryAfter(res.Header.Get("Retry-After"), time.Now())
		if !ok {
			wait = time.Duration(1<<attempt) * time.Second
		}
		if wait > t.maxWait {
			return res, nil
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		select {
		case <-time.After(wait):
		case <-req.Context().Done():
			return nil, req.Context().Err()
		}
	}
}

// RetryAfter reads a Retry-After value: delay-seconds or an HTTP date.
func RetryAfter(value string, now time.Time) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if n, err := strconv.Atoi(value); err == nil && n >= 0 {
		return time.Duration(n) * time.Second, true
	}
	if at, err := http.ParseTime(value); err == nil {
		if d := at.Sub(now); d > 0 {
			return d, true
		}
		return 0, true
	}
	return 0, false
}

// PageInfo is what Paginate needs of one page: its number, the number of pages, how many items
// it held, and the cursor of the next page when the list gives one.
type PageInfo struct {
	Page       int
	Pages      int
	Items      int
	NextCursor *string
}

// Paginate calls fetch for every page of a list, following next_cursor when the list gives one
// (keyset lists stay consistent while items are added), otherwise page up to pages. fetch gets
// the page number or the cursor to ask for (one of them is zero) and handles the page's items.
func Paginate(ctx context.Context, fetch func(ctx context.Context, page int, cursor string) (PageInfo, error)) error {
	page, cursor := 1, ""
	for {
		info, err := fetch(ctx, page, cursor)
		if err != nil {
			return err
		}
		switch {
		case info.NextCursor != nil && *info.NextCursor != "":
			page, cursor = 0, *info.NextCursor
		case info.Page < info.Pages && info.Items > 0:
			page, cursor = info.Page+1, ""
		default:
			return nil
		}
	}
}
