// Renders the served OpenAPI document (relative URLs: the page works behind a path prefix too).
// No validator badge: it would send the document to validator.swagger.io. Swagger UI does not
// render `x-codeSamples`: the plugin below shows each operation's samples (curl, Python,
// TypeScript) above its parameters when the operation is opened.
function CodeSamplesPlugin() {
  return {
    wrapComponents: {
      parameters: (Original, sys) => (props) => {
        const h = sys.React.createElement;
        const samples = props.operation?.get?.('x-codeSamples');
        const list = samples?.toJS ? samples.toJS() : [];
        if (list.length === 0) return h(Original, props);
        return h(
          'div',
          null,
          h(
            'div',
            { className: 'code-samples opblock-section' },
            h('div', { className: 'opblock-section-header' }, h('h4', { className: 'opblock-title' }, 'Code samples')),
            list.map((s) =>
              h(
                'div',
                { className: 'code-sample', key: s.label, 'data-lang': s.lang },
                h('h5', null, s.label),
                h('pre', { className: 'microlight' }, h('code', null, s.source)),
              ),
            ),
          ),
          h(Original, props),
        );
      },
    },
  };
}

window.SwaggerUIBundle({
  url: 'api/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
  docExpansion: 'list',
  tryItOutEnabled: false,
  plugins: [CodeSamplesPlugin],
});
