import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  errorBody,
  errorBodyFor,
  errorCatalogue,
  fieldErrorsFromIssues,
  isErrorCode,
} from './errors.js';

describe('errorCatalogue', () => {
  it('has snake_case codes, error statuses and a message for each', () => {
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      expect(code).toMatch(/^[a-z]+(_[a-z0-9]+)+$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(entry.message.length).toBeGreaterThan(0);
    }
  });

  it('answers bad input with a 4xx, never a 5xx', () => {
    for (const code of [
      'request_invalid_json',
      'request_body_not_object',
      'request_body_too_large',
      'request_unsupported_media_type',
      'validation_failed',
    ] as const) {
      expect(errorCatalogue[code].status).toBeLessThan(500);
    }
  });

  it('knows its own codes and nothing else', () => {
    expect(isErrorCode('validation_failed')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(422)).toBe(false);
  });
});

describe('errorBodyFor', () => {
  it('renders message, code and field errors in the shape of the API', () => {
    const body = errorBodyFor('validation_failed', { errors: { amount: ['Field is required'] } });
    expect(body).toEqual({
      message: 'Form is not valid',
      code: 'validation_failed',
      errors: { amount: ['Field is required'] },
    });
    expect(errorBody.parse(body)).toEqual(body);
    expect(errorBodyFor('route_not_found')).toEqual({
      message: 'Not found',
      code: 'route_not_found',
    });
  });
});

describe('fieldErrorsFromIssues', () => {
  it('names fields by path, groups messages and keeps form-level issues apart', () => {
    const schema = z
      .object({
        email: z.string().min(3, 'Min length 3').email('Email is not valid'),
        items: z.array(z.object({ price: z.string('Field is required') })),
      })
      .refine(() => false, 'Please fill the form');
    const result = schema.safeParse({ email: 'x', items: [{}] });
    expect(result.success).toBe(false);
    expect(fieldErrorsFromIssues(result.error?.issues ?? [])).toEqual({
      email: ['Min length 3', 'Email is not valid'],
      'items.0.price': ['Field is required'],
    });
    expect(fieldErrorsFromIssues([{ path: [], message: 'Please fill the form' }])).toEqual({
      _form: ['Please fill the form'],
    });
  });
});
