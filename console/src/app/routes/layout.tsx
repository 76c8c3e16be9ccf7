import { Link, Outlet } from 'react-router';

import { paths } from '@/config/paths';

export function Layout() {
  return (
    <div className="shell">
      <header className="shell-header">
        <img src="/favicon.svg" alt="" width={28} height={28} />
        <h1>
          <Link to={paths.home.getHref()} style={{ color: 'inherit', textDecoration: 'none' }}>
            Ludis
          </Link>
        </h1>
      </header>
      <main className="shell-main">
        <Outlet />
      </main>
    </div>
  );
}
