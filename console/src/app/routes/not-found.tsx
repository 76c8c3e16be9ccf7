import { Link } from 'react-router';

import { paths } from '@/config/paths';

export function NotFoundRoute() {
  return (
    <section>
      <h2>Page not found</h2>
      <p>There is nothing at this address.</p>
      <Link to={paths.home.getHref()}>Go to the home page</Link>
    </section>
  );
}
