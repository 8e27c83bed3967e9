// Renders the served OpenAPI document (relative URLs: the page works behind a path prefix too).
// No validator badge: it would send the document to validator.swagger.io.
window.SwaggerUIBundle({
  url: 'api/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
  docExpansion: 'list',
  tryItOutEnabled: false,
});
